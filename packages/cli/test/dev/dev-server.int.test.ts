// The harness over HTTP on 127.0.0.1 (port 0) against an app made by `anna-app init`: the rpc
// envelope (with a real tools.invoke to the bundled Python executa), denials, tokens, the bundle's
// path checks, headers and CSP, the SDK route, anna-tool-ids.js, SSE and the recording.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseRecording } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { startDevServer } from "../../src/dev/dev-server.js";
import { rawGet, rpc, scaffoldTestApp, SLUG, startHarness, tokenOf } from "./helpers.js";

const python = needs("python3");

const EVENT_TIMEOUT_MS = 3_000;
const BUNDLE = `/anna-apps/${SLUG}/dev`;

describe("anna-app dev server", () => {
  it.skipIf(python.skip)(
    `answers the rpc envelope: hello, a storage round trip and a tools.invoke to the Python executa${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const server = await startHarness(app);
      const token = tokenOf(server);
      const hello = await rpc(server, token, "window", "hello", { client_info: { name: "t" } });
      expect(hello.status).toBe(200);
      expect(hello.body).toMatchObject({
        id: "c-window.hello",
        ok: true,
        result: { window_uuid: server.window.window_uuid, app_id: SLUG },
      });
      // manifest.dev.seed_storage seeds the boot window's runtime_state.
      expect(await rpc(server, token, "storage", "get", { key: "visits" })).toMatchObject({
        body: { ok: true, result: { value: 0, exists: true } },
      });
      expect(await rpc(server, token, "storage", "set", { key: "visits", value: 3 })).toMatchObject(
        {
          body: { ok: true, result: { ok: true } },
        },
      );
      expect(await rpc(server, token, "storage", "get", { key: "visits" })).toMatchObject({
        body: { ok: true, result: { value: 3, exists: true } },
      });
      expect(server.executaStates()[0]?.state).toBe("idle");
      const invoked = await rpc(server, token, "tools", "invoke", {
        tool_id: app.toolId,
        method: "hello",
        args: { name: "Ada" },
      });
      expect(invoked.body).toMatchObject({ ok: true, result: { message: "Hello, Ada!" } });
      expect(server.executaStates()[0]?.state).toBe("ready");
      // Every call reached the panel log with its outcome.
      expect(server.panel.calls.map((c) => `${c.ns}.${c.method}:${c.outcome}`)).toContain(
        "tools.invoke:allowed",
      );
    },
  );

  it("denies a method the manifest does not grant, and refuses a forged or expired token", async () => {
    const app = await scaffoldTestApp();
    let now = Date.now();
    const server = await startHarness(app, { clock: () => now });
    const token = tokenOf(server);
    const denied = await rpc(server, token, "storage", "delete", { key: "visits" });
    expect(denied.body).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(server.panel.calls.at(-1)?.outcome).toBe("denied");

    const [head, body] = token.split(".");
    const forged = `${head}.${body}.${"A".repeat(43)}`;
    expect((await rpc(server, forged, "window", "hello")).body).toMatchObject({
      ok: false,
      error: { code: "invalid_token" },
    });
    expect((await rpc(server, undefined, "window", "hello")).body).toMatchObject({
      error: { code: "invalid_token" },
    });
    // A valid token used for another window is refused too.
    expect((await rpc(server, token, "window", "hello", {}, "someone-else")).body).toMatchObject({
      error: { code: "invalid_token" },
    });
    now += 130_000; // past the 120 s TTL and the 5 s skew allowance
    expect((await rpc(server, token, "window", "hello")).body).toMatchObject({
      error: { code: "invalid_token" },
    });
    // The page's refresh path (GET /windows/{wid}) mints a working one.
    const fresh = (await (
      await fetch(`${server.url}api/v1/anna-apps/runtime/windows/${server.window.window_uuid}`)
    ).json()) as { token: string };
    expect((await rpc(server, fresh.token, "window", "hello")).body).toMatchObject({ ok: true });
  });

  it("refuses a malformed envelope with 400", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app);
    const res = await fetch(`${server.url}api/v1/anna-apps/runtime/rpc`, {
      method: "POST",
      body: JSON.stringify({ ns: "window" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
  });

  it("refuses every traversal shape of a bundle path and serves files inside it", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app);
    const attempts = [
      "../manifest.json",
      "..%2fmanifest.json",
      "%2e%2e/manifest.json",
      "%2e%2e%2fmanifest.json",
      "%2E%2E%2Fapp.json",
      "..%5capp.json",
      "%252e%252e%252fmanifest.json",
      "/etc/passwd",
      "%2fetc%2fpasswd",
      "a/../../manifest.json",
      "index.html%00.js",
      "%zz",
    ];
    for (const attempt of attempts) {
      const res = await rawGet(server, `${BUNDLE}/${attempt}`);
      expect({ attempt, status: res.status }).toEqual({ attempt, status: 400 });
      expect(res.body).not.toContain("required_executas");
    }
    expect((await rawGet(server, `${BUNDLE}/nope.js`)).status).toBe(404);
    expect((await rawGet(server, `${BUNDLE}/logic.js`)).status).toBe(200);
  });

  it("serves the entry with the bundle CSP and headers, and only into an iframe", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app);
    const res = await rawGet(server, `${BUNDLE}/index.html?wid=x&t=y`, {
      "sec-fetch-dest": "iframe",
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'self' http://127.0.0.1:${server.port}`);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["permissions-policy"]).toBe(
      "camera=(), microphone=(), geolocation=(), payment=()",
    );
    expect(res.headers["etag"]).toMatch(/^"[0-9a-f]{64}"$/);
    const top = await rawGet(server, `${BUNDLE}/index.html`, { "sec-fetch-dest": "document" });
    expect(top.status).toBe(403);
    expect(top.body).toContain("must_be_iframed");
  });

  it("adds external_origins and allowed csp_overrides to the CSP", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      ui: Record<string, unknown> & { bundle: Record<string, unknown> };
    };
    manifest.ui.bundle.external_origins = ["https://api.example.com"];
    manifest.ui.csp_overrides = { "font-src": ["https://fonts.example.com"] };
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const server = await startHarness(app);
    const csp = String(
      (await rawGet(server, `${BUNDLE}/logic.js`)).headers["content-security-policy"],
    );
    expect(csp).toContain("connect-src 'self' https://api.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https://api.example.com");
    expect(csp).toContain("font-src 'self' data: https://fonts.example.com");
  });

  it("serves the SDK with CORS open and a generated anna-tool-ids.js over the committed one", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, {
      executa: [`dir=executas/${app.handle},tool_id=tool-override,type=python`],
    });
    const sdk = await rawGet(server, "/static/anna-apps/_sdk/latest/index.js");
    expect(sdk.status).toBe(200);
    expect(sdk.headers["access-control-allow-origin"]).toBe("*");
    expect(sdk.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(sdk.body).toContain("AnnaAppRuntime");
    const ids = await rawGet(server, `${BUNDLE}/anna-tool-ids.js`);
    expect(ids.body).toContain(`window.__ANNA_TOOL_IDS__ = {"${app.handle}":"tool-override"};`);
    // The file on disk is untouched.
    expect(readFileSync(path.join(app.dir, "bundle/anna-tool-ids.js"), "utf8")).toContain(
      app.toolId,
    );
  });

  it("streams title_changed over SSE", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app);
    const abort = new AbortController();
    const res = await fetch(`${server.url}api/v1/anna-apps/runtime/events/stream`, {
      signal: abort.signal,
    });
    try {
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      const frame = (async () => {
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`stream ended: ${text}`);
          text += decoder.decode(value);
          const at = text.indexOf("event: data_model/AnnaAppEvent\ndata: ");
          // The data line ends the JSON; an `id:` line (the event's number) may follow it.
          const end = text.indexOf("\n", at + 37);
          if (at !== -1 && end !== -1) {
            return JSON.parse(text.slice(at + 37, end)) as Record<string, unknown>;
          }
        }
      })();
      await rpc(server, tokenOf(server), "window", "set_title", { title: "Renamed" });
      let timer: NodeJS.Timeout | undefined;
      const event = await Promise.race([
        frame,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("no event")), EVENT_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      expect(event).toMatchObject({
        type: "data_model/AnnaAppEvent",
        kind: "title_changed",
        window_uuid: server.window.window_uuid,
        payload: { title: "Renamed" },
      });
    } finally {
      abort.abort();
    }
  });

  it("records the session as JSONL that parses without issues and holds no token", async () => {
    const app = await scaffoldTestApp();
    // Inside the scaffolded app, which the test removes (a temp dir of its own was left behind).
    const record = path.join(app.dir, "s.jsonl");
    const server = await startHarness(app, { record });
    const token = tokenOf(server);
    await rpc(server, token, "window", "hello");
    await rpc(server, token, "storage", "set", { key: "k", value: 1 });
    await rpc(server, token, "storage", "delete", { key: "k" });
    const text = readFileSync(record, "utf8");
    const parsed = parseRecording(text);
    expect(parsed.issues).toEqual([]);
    expect(parsed.meta).toMatchObject({ kind: "meta" });
    expect(parsed.kinds).toMatchObject({ meta: 1, req: 3, res: 3 });
    expect(parsed.events.length).toBeGreaterThan(0);
    expect(text).not.toContain(token);
  });

  it("answers manifest.dev.mocks after auth and the ACL, and records the mocked call", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
    manifest.dev = {
      user_id: 7,
      mocks: {
        "tools.invoke": { result: { pong: true } },
        "storage.delete": { result: { deleted: true } },
      },
    };
    writeFileSync(manifestPath, JSON.stringify(manifest));
    // Inside the scaffolded app, which the test removes (a temp dir of its own was left behind).
    const record = path.join(app.dir, "s.jsonl");
    const server = await startHarness(app, { record });
    const token = tokenOf(server);
    expect(server.dispatcher.userId).toBe("7");
    expect(
      (await rpc(server, token, "tools", "invoke", { tool_id: app.toolId, method: "hello" })).body,
    ).toEqual({
      id: "c-tools.invoke",
      ok: true,
      result: { pong: true },
    });
    // Not granted stays denied — a tool the manifest does not declare too, as in production —
    // and a bad token stays invalid: the mock replaces only the handler.
    expect(
      (await rpc(server, token, "tools", "invoke", { tool_id: "x", method: "hello" })).body,
    ).toMatchObject({
      error: { code: "permission_denied" },
    });
    expect((await rpc(server, token, "storage", "delete", { key: "k" })).body).toMatchObject({
      error: { code: "permission_denied" },
    });
    expect((await rpc(server, "nope", "tools", "invoke", {})).body).toMatchObject({
      error: { code: "invalid_token" },
    });
    expect(server.executaStates()[0]?.state).toBe("idle");
    const calls = parseRecording(readFileSync(record, "utf8")).calls;
    expect(calls[0]).toMatchObject({
      ns: "tools",
      method: "invoke",
      outcome: "ok",
      result: { pong: true },
    });
  });

  it.skipIf(python.skip)(
    `answers executa_unavailable for a plugin that cannot start and keeps its stderr for the panel${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const plugin = path.join(
        app.dir,
        app.executaDir,
        `${app.handle.replace(/-/g, "_")}_plugin.py`,
      );
      writeFileSync(
        plugin,
        'import sys\nsys.stderr.write("boom: no module named focus\\n")\nsys.exit(3)\n',
      );
      const server = await startHarness(app);
      const token = tokenOf(server);
      const out = await rpc(server, token, "tools", "invoke", {
        tool_id: app.toolId,
        method: "hello",
        args: { name: "x" },
      });
      expect(out.body).toMatchObject({ ok: false, error: { code: "executa_unavailable" } });
      expect(server.executaStates()[0]?.stderr.join("\n")).toContain("boom: no module named focus");
      expect(server.panel.calls.at(-1)?.outcome).toBe("error");
      // The harness keeps serving.
      expect((await rpc(server, token, "storage", "get", { key: "visits" })).body).toMatchObject({
        ok: true,
      });
    },
  );

  it("records under fixtures/ by default (A10)", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, { record: undefined });
    expect(server.recordPath).toMatch(/[/\\]fixtures[/\\]dev-session-[\dT-]+Z\.jsonl$/);
    expect(path.dirname(server.recordPath ?? "")).toBe(path.join(app.dir, "fixtures"));
    expect(parseRecording(readFileSync(server.recordPath ?? "", "utf8")).meta).toMatchObject({
      kind: "meta",
      app_id: SLUG,
    });
  });

  it("skips an executa with enabled:false in discovery, and --executa dir=… brings it back", async () => {
    const app = await scaffoldTestApp();
    const executaJson = path.join(app.dir, app.executaDir, "executa.json");
    const declared = JSON.parse(readFileSync(executaJson, "utf8")) as Record<string, unknown>;
    writeFileSync(executaJson, JSON.stringify({ ...declared, enabled: false }));
    const discovered = await startHarness(app);
    expect(discovered.executaStates()).toEqual([]);
    await discovered.close();
    const explicit = await startHarness(app, { executa: [`dir=${app.executaDir}`] });
    expect(explicit.executas.source).toBe("--executa");
    expect(explicit.executaStates().map((e) => e.tool_id)).toEqual([app.toolId]);
  });

  it("answers llm.complete from the offline mock, and llm_disabled under --no-llm (A7)", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      ui: { host_api: Record<string, unknown> };
    };
    manifest.ui.host_api.llm = ["complete"];
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const args = { messages: [{ role: "user", content: { type: "text", text: "hi" } }] };
    const mock = await startHarness(app);
    expect(mock.llmLabel).toBe("mock (synthetic)");
    expect((await rpc(mock, tokenOf(mock), "llm", "complete", args)).body).toMatchObject({
      ok: true,
      result: { role: "assistant", content: { type: "text" } },
    });
    await mock.close();
    const off = await startHarness(app, { llm: "off" });
    expect((await rpc(off, tokenOf(off), "llm", "complete", args)).body).toMatchObject({
      ok: false,
      error: { code: "llm_disabled" },
    });
  });

  it("refuses --storage aps without a saved account, an unknown --view and a busy port at launch", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const noAccount = { XDG_CONFIG_HOME: path.join(app.dir, "no-config") };
    await expect(
      startDevServer({
        manifestPath,
        port: 0,
        storage: "aps",
        env: noAccount,
        record: false,
        watch: false,
      }),
    ).rejects.toThrow(/not logged in: .*run 'anna-app login --host <url>' first/);
    await expect(
      startDevServer({ manifestPath, port: 0, view: "nope", record: false, watch: false }),
    ).rejects.toThrow(/--view nope/);
    const first = await startHarness(app);
    await expect(
      startDevServer({ manifestPath, port: first.port, record: false, watch: false }),
    ).rejects.toThrow(new RegExp(`port ${first.port} is in use`));
  });
});
