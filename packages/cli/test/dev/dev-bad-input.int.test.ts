// Bad input and security through the harness's production wire (issue 5): each hostile or broken
// call is answered with its documented code, shows in the panel with its outcome, and leaves the
// harness working — the next legitimate call succeeds. (Forged postMessages from a foreign origin
// or another window are refused in the browser: dashboard-panel.int.test.ts; broken recordings
// on replay: dev-fixtures.int.test.ts; bundle path traversal: dev-server.int.test.ts.)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { MAX_BODY_BYTES } from "@anna-ai/app-core/http";
import type { DevServer } from "../../src/dev/dev-server.js";
import {
  rawGet,
  rawRequest,
  rpc,
  scaffoldTestApp,
  SLUG,
  startHarness,
  tokenOf,
} from "./helpers.js";

const python = needs("python3");

/** The panel's entry for the last call, as the dashboard shows it. */
function lastPanelRow(server: DevServer): { call: string; outcome: string; code?: string } {
  const entry = server.panel.calls.at(-1);
  return {
    call: `${entry?.ns}.${entry?.method}`,
    outcome: entry?.outcome ?? "missing",
    ...(entry?.error === undefined ? {} : { code: entry.error.code }),
  };
}

/** A legitimate call still answers (the storage seed of the scaffolded app). */
async function stillServes(server: DevServer, token = tokenOf(server)): Promise<void> {
  expect((await rpc(server, token, "storage", "get", { key: "visits" })).body).toMatchObject({
    ok: true,
    result: { exists: true },
  });
}

describe("anna-app dev: bad input is refused, logged, and contained", () => {
  it("a method the manifest does not grant: permission_denied, a denied row, the next call works", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const out = await rpc(server, tokenOf(server), "chat", "write_message", { content: "hi" });
    expect(out.body).toMatchObject({
      ok: false,
      error: { code: "permission_denied", message: expect.stringContaining("ui.host_api") },
    });
    expect(lastPanelRow(server)).toEqual({
      call: "chat.write_message",
      outcome: "denied",
      code: "permission_denied",
    });
    await stillServes(server);
  });

  it("a forged, a missing and another window's token: invalid_token, denied rows, the real token still works", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const token = tokenOf(server);
    const [head, body] = token.split(".");
    const attempts: [string, string | undefined, string][] = [
      ["forged signature", `${head}.${body}.${"A".repeat(43)}`, server.window.window_uuid],
      ["no token", undefined, server.window.window_uuid],
      ["not a JWT", "not-a-token", server.window.window_uuid],
      ["another window's envelope", token, "0f0f0f0f-0000-4000-8000-000000000000"],
    ];
    for (const [what, bad, wid] of attempts) {
      const out = await rpc(server, bad, "storage", "get", { key: "visits" }, wid);
      expect({ what, body: out.body }).toMatchObject({
        what,
        body: { ok: false, error: { code: "invalid_token" } },
      });
      expect({ what, row: lastPanelRow(server) }).toEqual({
        what,
        row: { call: "storage.get", outcome: "denied", code: "invalid_token" },
      });
    }
    await stillServes(server, token);
  });

  it("an expired token: invalid_token and a denied row; a freshly minted one works", async () => {
    let now = Date.now();
    const server = await startHarness(await scaffoldTestApp(), { clock: () => now });
    const token = tokenOf(server);
    now += 130_000; // past the 120 s TTL and the skew allowance
    expect((await rpc(server, token, "storage", "get", { key: "visits" })).body).toMatchObject({
      ok: false,
      error: { code: "invalid_token" },
    });
    expect(lastPanelRow(server)).toMatchObject({ outcome: "denied", code: "invalid_token" });
    const fresh = (await (
      await fetch(`${server.url}api/v1/anna-apps/runtime/windows/${server.window.window_uuid}`)
    ).json()) as { token: string };
    await stillServes(server, fresh.token);
  });

  it("an oversized runtime_state: state_too_large, an error row, and the stored state is unchanged", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const token = tokenOf(server);
    await rpc(server, token, "storage", "set", { key: "visits", value: 7 });
    const huge = "x".repeat(300 * 1024); // over the 256 KiB cap, under the 4 MiB body limit
    const out = await rpc(server, token, "storage", "set", { key: "blob", value: huge });
    expect(out.body).toMatchObject({ ok: false, error: { code: "state_too_large" } });
    expect(lastPanelRow(server)).toEqual({
      call: "storage.set",
      outcome: "error",
      code: "state_too_large",
    });
    expect((await rpc(server, token, "storage", "get", { key: "blob" })).body).toMatchObject({
      ok: true,
      result: { exists: false },
    });
    expect((await rpc(server, token, "storage", "get", { key: "visits" })).body).toMatchObject({
      ok: true,
      result: { value: 7 },
    });
  });

  it("a body over the rpc limit or not JSON: 413 / 400 with a code, and the harness keeps serving", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const endpoint = `${server.url}api/v1/anna-apps/runtime/rpc`;
    const tooBig = await fetch(endpoint, {
      method: "POST",
      body: JSON.stringify({ pad: "x".repeat(MAX_BODY_BYTES) }),
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ error: { code: "value_too_large" } });
    const notJson = await fetch(endpoint, { method: "POST", body: "{not json" });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      error: { code: "invalid_arg", message: expect.stringContaining("not JSON") },
    });
    // Neither reached the dispatcher, so neither is a Host API call in the panel.
    expect(server.panel.calls).toEqual([]);
    await stillServes(server);
  });

  it.skipIf(python.skip)(
    `a plugin that crashes mid-call: executa_unavailable, an error row, and both the harness and the plugin recover${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const plugin = path.join(
        app.dir,
        app.executaDir,
        `${app.handle.replace(/-/g, "_")}_plugin.py`,
      );
      const source = readFileSync(plugin, "utf8");
      const hello = /^def tool_hello\(.*\n/m;
      expect(source).toMatch(hello);
      writeFileSync(
        plugin,
        source.replace(
          hello,
          (line) =>
            `${line}    if name == "crash":\n        import os, sys\n        sys.stderr.write("crashing mid-call\\n")\n        sys.stderr.flush()\n        os._exit(7)\n`,
        ),
      );
      const server = await startHarness(app);
      const token = tokenOf(server);
      const invoke = (name: string) =>
        rpc(server, token, "tools", "invoke", {
          tool_id: app.toolId,
          method: "hello",
          args: { name },
        });
      expect((await invoke("Ada")).body).toMatchObject({ ok: true });
      const crashed = await invoke("crash");
      expect(crashed.body).toMatchObject({ ok: false, error: { code: "executa_unavailable" } });
      expect(lastPanelRow(server)).toEqual({
        call: "tools.invoke",
        outcome: "error",
        code: "executa_unavailable",
      });
      expect(server.executaStates()[0]?.stderr).toContain("crashing mid-call");
      await stillServes(server, token);
      // The pool starts the plugin again for the next invoke.
      expect((await invoke("Grace")).body).toMatchObject({
        ok: true,
        result: { message: "Hello, Grace!" },
      });
    },
  );

  it("bundle paths that escape the bundle: 400 invalid_path, and the bundle is still served", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const bundle = `/anna-apps/${SLUG}/dev`;
    for (const attempt of [
      "../manifest.json",
      "%2e%2e%2fapp.json",
      "%252e%252e/x",
      "/etc/passwd",
    ]) {
      const res = await rawGet(server, `${bundle}/${attempt}`);
      expect({ attempt, status: res.status, body: res.body }).toMatchObject({
        attempt,
        status: 400,
        body: expect.stringContaining("invalid_path"),
      });
    }
    // A request line no URL parser accepts is the client's error too (was 500 internal_error).
    for (const attempt of ["//", "//host:port/x"]) {
      const res = await rawGet(server, attempt);
      expect({ attempt, status: res.status, body: res.body }).toMatchObject({
        attempt,
        status: 400,
        body: expect.stringContaining("invalid_path"),
      });
    }
    expect((await rawGet(server, `${bundle}/logic.js`)).status).toBe(200);
    await stillServes(server);
  });

  it("the windows and /dev routes asked by another origin (the app's null-origin iframe, another site): 403 forbidden_origin; the dashboard's origin and header-less clients are served", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const wid = server.window.window_uuid;
    const windows = "/api/v1/anna-apps/runtime/windows";
    const own = server.url.replace(/\/$/, "");
    const hostile = ["null", "http://evil.example", `http://attacker.test:${server.port}`];
    for (const from of hostile) {
      for (const [method, route, body] of [
        ["POST", windows, { view: "main" }],
        ["GET", `${windows}/${wid}`, undefined],
        ["PATCH", `${windows}/${wid}`, { title: "pwned" }],
        ["DELETE", `${windows}/${wid}`, undefined],
        [
          "POST",
          "/api/v1/anna-apps/runtime/rpc",
          { id: 1, window_uuid: wid, ns: "window", method: "heartbeat" },
        ],
        ["POST", "/dev/api/events", { kind: "entry_payload", payload: {} }],
      ] as const) {
        const res = await rawRequest(server, method, route, { origin: from }, body);
        expect({ from, method, route, status: res.status, body: res.body }).toMatchObject({
          status: 403,
          body: expect.stringContaining("forbidden_origin"),
        });
      }
    }
    // Nothing happened: the window is still open under its own title.
    const listed = await rawRequest(server, "GET", windows, { origin: own });
    expect(listed.status).toBe(200);
    expect(listed.body).toContain(wid);
    expect(listed.body).not.toContain("pwned");
    expect(
      (await rawRequest(server, "GET", windows, { origin: own.replace("127.0.0.1", "localhost") }))
        .status,
    ).toBe(200);
    expect((await rawRequest(server, "GET", `${windows}/${wid}`)).status).toBe(200);
    await stillServes(server);
  });
});
