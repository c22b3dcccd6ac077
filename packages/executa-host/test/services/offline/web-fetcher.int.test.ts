// The guarded fetcher against a real server that misbehaves: a compressed body that stops
// mid-stream must still end at the deadline, and a redirect or error answer must not keep its
// connection open reading a body nobody uses.
import { gzipSync } from "node:zlib";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { guardedFetch, WebItemError } from "../../../src/services/offline/web-fetcher.js";
import { SsrfPolicy } from "../../../src/services/offline/web-ssrf.js";
import { startWebServer } from "./web-test-server.js";

const policy = new SsrfPolicy({ allowLoopback: true });
const options = { policy, maxBytes: 1024 * 1024, accept: "*/*" };

async function failure(promise: Promise<unknown>): Promise<WebItemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebItemError);
  return error as WebItemError;
}

/** Resolves when the server side of this answer's connection is closed. */
function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once("close", () => resolve()));
}

describe("guardedFetch", () => {
  it(
    "ends a gzip body that stops mid-stream at the deadline with TIMEOUT",
    { timeout: 5_000 },
    async () => {
      const half = gzipSync("x".repeat(10_000)).subarray(0, 200);
      const server = await startWebServer({
        "/slow": {
          handle: (res) => {
            res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
            res.write(half); // …and never the rest
          },
        },
      });
      const error = await failure(
        guardedFetch(server.url("/slow"), { ...options, timeoutMs: 200 }),
      );
      expect(error.code).toBe("TIMEOUT");
    },
  );

  it("closes a redirect's connection instead of reading its body", { timeout: 5_000 }, async () => {
    let redirectClosed: Promise<void> | undefined;
    const server = await startWebServer({
      "/moved": {
        handle: (res) => {
          redirectClosed = closed(res);
          res.writeHead(302, { location: "/page" });
          res.write("a body that never ends ");
        },
      },
      "/page": { body: "here", type: "text/plain" },
    });
    const page = await guardedFetch(server.url("/moved"), { ...options, timeoutMs: 60_000 });
    expect(page.body.toString()).toBe("here");
    await redirectClosed; // with the connection drained in the background, only the deadline ends it
  });

  it(
    "closes an error answer's connection instead of reading its body",
    { timeout: 5_000 },
    async () => {
      let errorClosed: Promise<void> | undefined;
      const server = await startWebServer({
        "/gone": {
          handle: (res) => {
            errorClosed = closed(res);
            res.writeHead(503, { "content-type": "text/html" });
            res.write("<p>an error page that never ends");
          },
        },
      });
      const error = await failure(
        guardedFetch(server.url("/gone"), { ...options, timeoutMs: 60_000 }),
      );
      expect(error.code).toBe("HTTP_503");
      await errorClosed;
    },
  );

  it("refuses a redirect to another scheme or to a URL with credentials, without following it", async () => {
    const server = await startWebServer({
      "/to-file": { redirect: "file:///etc/passwd" },
      "/page": { body: "here", type: "text/plain" },
    });
    const withUser = await startWebServer({
      "/to-user": { redirect: server.url("/page").replace("http://", "http://admin:pw@") },
    });
    const [file, user] = await Promise.all([
      failure(guardedFetch(server.url("/to-file"), { ...options, timeoutMs: 5_000 })),
      failure(guardedFetch(withUser.url("/to-user"), { ...options, timeoutMs: 5_000 })),
    ]);
    expect([file.code, user.code]).toEqual(["SSRF_BLOCKED", "SSRF_BLOCKED"]);
    expect(file.message).toMatch(/file: URLs are not fetched/);
    expect(user.message).toMatch(/credentials/);
    expect(server.hits.get("/page")).toBeUndefined();
  });
});
