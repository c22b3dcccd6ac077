// web.*, credentials.* and apps.* through the harness's rpc endpoint (real HTTP on 127.0.0.1):
// the dev grant is on, web.fetch goes out through the SSRF guard (loopback opened for the test
// server only by the test option), web.search answers from the --mock-llm file's web lines,
// image_fetch lands in files.*, accounts come from manifest.dev.credentials, apps.launch opens a
// window and deck changes reach the event stream.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it, onTestFinished } from "vitest";
import { createStyle } from "../../src/cli/style.js";
import { devBanner, formatBanner } from "../../src/dev/banner.js";
import { DevLaunchError } from "../../src/dev/load-app.js";
import { rpc, startHarness, tokenOf } from "./helpers.js";

const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

function writeApp(dev: Record<string, unknown>): { dir: string; fixture: string } {
  const root = mkdtempSync(path.join(tmpdir(), "anna-dev-ns-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, "web-app");
  mkdirSync(path.join(dir, "bundle"), { recursive: true });
  writeFileSync(path.join(dir, "bundle", "index.html"), "<!doctype html><title>web</title>");
  writeFileSync(
    path.join(dir, "manifest.json"),
    JSON.stringify({
      schema: 2,
      ui: {
        bundle: { format: "static-spa", entry: "index.html" },
        views: [
          { name: "main", title: "Main", default: true },
          { name: "reader", title: "Reader" },
        ],
        host_api: {
          web: ["*"],
          credentials: ["google"],
          apps: ["*"],
          files: ["download_url"],
        },
      },
      dev,
    }),
  );
  const fixture = path.join(dir, "mock.jsonl");
  writeFileSync(
    fixture,
    JSON.stringify({
      ns: "web",
      method: "search",
      result: {
        results: [
          { title: "Anna", url: "https://anna.example/", snippet: "s", site: "anna.example" },
        ],
      },
    }) + "\n",
  );
  return { dir, fixture };
}

async function pageServer(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === "/pixel.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1);
    else res.writeHead(200, { "content-type": "text/html" }).end("<title>Local</title><p>Hi</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const CREDENTIALS = {
  google: [{ account_id: "acct-1", email: "ada@example.com", access_token: "ya29.dev" }],
};

describe("anna-app dev: web.*, credentials.*, apps.*", () => {
  it("serves web.* with the dev grant, the SSRF guard and the mock fixture", async () => {
    const origin = await pageServer();
    const app = writeApp({ credentials: CREDENTIALS });
    const server = await startHarness(app, { mockLlm: app.fixture, allowLoopbackFetch: true });
    const token = tokenOf(server);

    const fetched = await rpc(server, token, "web", "fetch", {
      urls: [`${origin}/page`, "http://169.254.169.254/latest/meta-data/"],
    });
    expect(fetched).toMatchObject({
      status: 200,
      body: {
        ok: true,
        result: {
          pages: [
            { ok: true, title: "Local", content: "Hi" },
            { ok: false, error: "SSRF_BLOCKED" },
          ],
        },
      },
    });
    expect((await rpc(server, token, "web", "search", { query: "anna" })).body).toMatchObject({
      ok: true,
      result: { results: [{ title: "Anna" }], provider_tier: "mock", quota_consumed: 0 },
    });

    const image = await rpc(server, token, "web", "imageFetch", { url: `${origin}/pixel.png` });
    expect(image.body).toMatchObject({ ok: true, result: { mime_type: "image/png" } });
    const { path: stored } = image.body.result as { path: string };
    const link = await rpc(server, token, "files", "download_url", { path: stored });
    const bytes = Buffer.from(
      await (await fetch((link.body.result as { get_url: string }).get_url)).arrayBuffer(),
    );
    expect(bytes.equals(PNG_1X1)).toBe(true);
  });

  it("names the flag when no fixture answers web.search", async () => {
    const server = await startHarness(writeApp({}));
    expect(
      (await rpc(server, tokenOf(server), "web", "search", { query: "anna" })).body,
    ).toMatchObject({
      ok: false,
      error: { code: "APP_PROVIDER_ERROR", message: expect.stringContaining("--mock-llm") },
    });
  });

  it("answers credentials.* from manifest.dev.credentials", async () => {
    const server = await startHarness(writeApp({ credentials: CREDENTIALS }));
    const token = tokenOf(server);
    expect(
      (await rpc(server, token, "credentials", "list_accounts", { provider: "google" })).body,
    ).toMatchObject({
      ok: true,
      result: { accounts: [{ account_id: "acct-1", email: "ada@example.com", is_default: true }] },
    });
    expect(
      (await rpc(server, token, "credentials", "get_token", { provider: "google" })).body,
    ).toMatchObject({
      ok: true,
      result: { access_token: "ya29.dev", account_id: "acct-1" },
    });
    expect(
      (await rpc(server, token, "credentials", "get_token", { provider: "slack" })).body,
    ).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
  });

  it("shows where web answers and which accounts come from in the banner", async () => {
    const app = writeApp({ credentials: CREDENTIALS });
    const withFixture = await startHarness(app, { mockLlm: app.fixture, cwd: app.dir });
    const text = formatBanner(await devBanner(withFixture), createStyle(false), app.dir);
    // The --mock-llm file relative to the cwd, like the banner's other paths.
    const shown = path.relative(app.dir, app.fixture);
    expect(shown).not.toMatch(/^\//);
    expect(text).toContain(`  LLM        mock (${shown})\n`);
    expect(text).toContain(
      `  Web        fetch live (SSRF-guarded); search from ${shown} (1 web line)\n`,
    );
    expect(text).toContain("  Accounts   google (1)\n");
    const bare = await devBanner(await startHarness(writeApp({})));
    expect(bare).toMatchObject({
      web: expect.stringContaining('search needs {"ns":"web"} lines in a --mock-llm file'),
      credentials: "none (manifest.dev.credentials)",
    });
  });

  it("refuses a malformed manifest.dev.credentials at launch, naming the path", async () => {
    await expect(
      startHarness(writeApp({ credentials: { google: [{ email: "no id" }] } })),
    ).rejects.toThrow(
      new DevLaunchError(
        "manifest dev.credentials.google[0].account_id must be a non-empty string",
      ),
    );
  });

  it("lists manifest.dev.installed_apps beside the app; launching one is not possible in the harness", async () => {
    const server = await startHarness(
      writeApp({
        installed_apps: [{ slug: "notes", handle: "acme", name: "Notes", views: ["main", "list"] }],
      }),
    );
    const token = tokenOf(server);
    expect((await rpc(server, token, "apps", "search", { query: "not" })).body).toMatchObject({
      ok: true,
      result: {
        apps: [
          {
            app_id: "notes",
            name: "Notes",
            views: [{ name: "main", default: true }, { name: "list" }],
          },
        ],
      },
    });
    expect(
      (await rpc(server, token, "apps", "deck.add", { app_ref: "@acme/notes" })).body,
    ).toMatchObject({
      ok: true,
      result: { app_ids: ["notes"] },
    });
    expect((await rpc(server, token, "apps", "launch", { app_ref: "notes" })).body).toMatchObject({
      ok: false,
      error: {
        code: "not_implemented",
        message: expect.stringContaining("cannot open windows of notes"),
      },
    });
    await expect(startHarness(writeApp({ installed_apps: [{ name: "x" }] }))).rejects.toThrow(
      "manifest dev.installed_apps[0].slug must be a non-empty string",
    );
  });

  it("lists and launches the app under development and streams deck_changed", async () => {
    const server = await startHarness(writeApp({}));
    const token = tokenOf(server);
    const events: AnnaAppEvent[] = [];
    const stop = server.dispatcher.events.subscribe({ userId: server.dispatcher.userId }, (e) => {
      events.push(e);
    });
    onTestFinished(stop);
    expect((await rpc(server, token, "apps", "list")).body).toMatchObject({
      ok: true,
      result: {
        apps: [{ app_id: server.app.slug, views: [{ name: "main" }, { name: "reader" }] }],
      },
    });
    const launched = await rpc(server, token, "apps", "launch", {
      app_ref: server.app.slug,
      view: "reader",
    });
    expect(launched.body).toMatchObject({ ok: true, result: { view: "reader", status: "active" } });
    const wid = (launched.body.result as { window_uuid: string }).window_uuid;
    expect((await server.dispatcher.listWindows()).map((w) => w.window_uuid)).toContain(wid);
    expect(events.find((e) => e.kind === "open_view" && e.window_uuid === wid)).toBeDefined();
    await rpc(server, token, "apps", "deck.add", { app_ref: server.app.slug });
    expect(events.filter((e) => e.kind === "deck_changed").map((e) => e.payload)).toEqual([
      { action: "add", app_ids: [server.app.slug] },
    ]);
  });
});
