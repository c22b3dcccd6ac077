// web.* through the dispatcher onto the executa-host offline web service, fetching from a real
// HTTP server on 127.0.0.1: the ACL, the user's web_grant, argument shapes (invalid_arg) versus
// caps (APP_INVALID_REQUEST), per-item failures, the camelCase alias and image_fetch into files.*.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createOfflineStorage,
  createOfflineWebService,
  MockFixture,
  WEB_GRANT_ALL,
} from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CallResult } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

async function pages(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === "/article") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        "<html><head><title>Article</title></head><body><main><p>Body text</p></main></body></html>",
      );
    } else if (req.url === "/pixel") {
      res.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1);
    } else if (req.url === "/metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function result(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

const fixture = MockFixture.parse(
  JSON.stringify({
    ns: "web",
    method: "search",
    result: {
      results: [
        { title: "Anna", url: "https://anna.example/", snippet: "s", site: "anna.example" },
      ],
    },
  }),
);

describe("web.*", () => {
  it("fetches granted pages with per-item failures and the SSRF guard on every hop", async () => {
    const origin = await pages();
    const web = createOfflineWebService({ allowLoopback: true });
    const { dispatcher, token } = await openDispatcher(
      { web: ["fetch"] },
      { services: { web }, webGrant: WEB_GRANT_ALL },
    );
    const out = result(
      await dispatcher.call(token, "web", "fetch", {
        urls: [`${origin}/article`, `${origin}/metadata`, `${origin}/missing`],
      }),
    );
    expect(out).toMatchObject({
      quota_consumed: 0,
      pages: [
        { url: `${origin}/article`, ok: true, title: "Article", content: "Body text" },
        { url: `${origin}/metadata`, ok: false, error: "SSRF_BLOCKED" },
        { url: `${origin}/missing`, ok: false, error: "HTTP_404" },
      ],
    });
  });

  it("denies a method the manifest does not grant (permission_denied) before the grant check", async () => {
    const { dispatcher, token } = await openDispatcher(
      { web: ["fetch"] },
      { services: { web: createOfflineWebService({ fixture }) } },
    );
    expect(await dispatcher.call(token, "web", "search", { query: "anna" })).toMatchObject({
      ok: false,
      error: { code: "permission_denied", message: expect.stringContaining("ui.host_api.web") },
    });
  });

  it("answers APP_NOT_GRANTED until the user's web_grant is on (the consent-card trigger)", async () => {
    const { dispatcher, token } = await openDispatcher(
      { web: ["*"] },
      { services: { web: createOfflineWebService({ fixture }) } },
    );
    expect(await dispatcher.call(token, "web", "search", { query: "anna" })).toMatchObject({
      ok: false,
      error: { code: "APP_NOT_GRANTED", details: { errorCode: "WEB_NOT_GRANTED" } },
    });
  });

  it("tells a wrong shape (invalid_arg) from an out-of-cap value (APP_INVALID_REQUEST)", async () => {
    const { dispatcher, token } = await openDispatcher(
      { web: ["*"] },
      { services: { web: createOfflineWebService({ fixture }) }, webGrant: WEB_GRANT_ALL },
    );
    expect(
      await dispatcher.call(token, "web", "fetch", { urls: "https://a.example" }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", details: { issues: [{ path: "urls" }] } },
    });
    expect(
      await dispatcher.call(token, "web", "fetch", {
        urls: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`),
      }),
    ).toMatchObject({
      ok: false,
      error: { code: "APP_INVALID_REQUEST", message: expect.stringContaining("1 to 10 URLs") },
    });
    expect(
      await dispatcher.call(token, "web", "search", { query: "anna", max_results: 50 }),
    ).toMatchObject({ ok: false, error: { code: "APP_INVALID_REQUEST" } });
    expect(result(await dispatcher.call(token, "web", "search", { query: "anna" }))).toEqual({
      results: [
        { title: "Anna", url: "https://anna.example/", snippet: "s", site: "anna.example" },
      ],
      provider_tier: "mock",
      quota_consumed: 0,
    });
  });

  it("stores image_fetch (alias imageFetch) in the app's files, readable through files.*", async () => {
    const origin = await pages();
    const offline = await createOfflineStorage({ mode: "memory" });
    onTestFinished(() => offline.close());
    const web = createOfflineWebService({ allowLoopback: true, files: offline.files });
    const { dispatcher, token } = await openDispatcher(
      { web: ["image_fetch"], files: ["list"] },
      {
        services: { web, storage: offline.storage, files: offline.files },
        webGrant: WEB_GRANT_ALL,
      },
    );
    const fetched = result(
      await dispatcher.call(token, "web", "imageFetch", { url: `${origin}/pixel` }),
    );
    expect(fetched).toMatchObject({ mime_type: "image/png", bytes_size: PNG_1X1.length });
    expect(fetched).not.toHaveProperty("url");
    const listed = result(await dispatcher.call(token, "files", "list", { prefix: "web/" }));
    expect(listed.items).toEqual([expect.objectContaining({ path: fetched.path })]);
  });

  it("answers not_implemented when the host has no web service", async () => {
    const { dispatcher, token } = await openDispatcher({ web: ["*"] }, { webGrant: WEB_GRANT_ALL });
    expect(
      await dispatcher.call(token, "web", "fetch", { urls: ["https://a.example"] }),
    ).toMatchObject({
      ok: false,
      error: { code: "not_implemented", message: expect.stringContaining("no web service") },
    });
  });
});
