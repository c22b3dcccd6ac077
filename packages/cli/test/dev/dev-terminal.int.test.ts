// The terminal of `anna-app dev` says what happens: a line per Host API call (refusals with the
// message that names the fix, the legacy-storage `if_match` warning under its call, no passing
// heartbeats), per live reload and per executa restart, and the recording's path on exit;
// `--quiet` turns it all off.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { startDevProcess, type DevProcess } from "./dev-process.js";
import { scaffoldTestApp } from "./helpers.js";

interface Session {
  call(ns: string, method: string, args: unknown): Promise<Record<string, unknown>>;
}

const python = needs("python3");

/** The dashboard port from the text banner, and the boot window's token from the harness state. */
async function attach(dev: DevProcess): Promise<Session> {
  const [, port] = await dev.waitFor(/Dashboard {2}http:\/\/127\.0\.0\.1:(\d+)\//);
  await dev.waitFor(/Ctrl-C stops the harness/);
  const base = `http://127.0.0.1:${port}`;
  const state = (await (await fetch(`${base}/dev/api/state`)).json()) as {
    windows: Array<{ window_uuid: string; url: string }>;
  };
  const win = state.windows[0];
  if (win === undefined) throw new Error("the harness has no window");
  const token = new URL(win.url).searchParams.get("t") ?? "";
  let seq = 0;
  return {
    async call(ns, method, args) {
      seq += 1;
      const res = await fetch(`${base}/api/v1/anna-apps/runtime/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Anna-App-Token": token },
        body: JSON.stringify({ id: `t-${seq}`, window_uuid: win.window_uuid, ns, method, args }),
      });
      return (await res.json()) as Record<string, unknown>;
    },
  };
}

describe("anna-app dev: the terminal narrates the session", () => {
  it.skipIf(python.skip)(
    `prints calls, refusals with their fix, the if_match warning, reloads, restarts and the recording${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const dev = startDevProcess(["--port", "0", "--record", "fixtures/s.jsonl"], app.dir);
      const s = await attach(dev);

      expect(
        await s.call("storage", "set", { key: "visits", value: 1, if_match: 'W/"1-stale"' }),
      ).toMatchObject({ ok: true });
      await dev.waitFor(
        /storage\.set allowed [\d.]+ ms \{"key":"visits".*\n {2}! if_match is ignored: the legacy storage backend/,
      );
      // Not granted by the template's ui.host_api: the line carries the code and the message.
      expect(await s.call("storage", "delete", { key: "visits" })).toMatchObject({ ok: false });
      const [denied] = await dev.waitFor(
        /storage\.delete denied [\d.]+ ms → permission_denied: .+/,
      );
      expect(denied).toMatch(/host_api/);

      await s.call("window", "heartbeat", {});
      await s.call("storage", "get", { key: "visits" });
      await dev.waitFor(/storage\.get allowed/);
      expect(dev.stdout()).not.toContain("window.heartbeat");

      await s.call("tools", "invoke", {
        tool_id: app.toolId,
        method: "hello",
        args: { name: "A" },
      });
      await dev.waitFor(/tools\.invoke allowed/);
      const plugin = path.join(
        app.dir,
        app.executaDir,
        `${app.handle.replace(/-/g, "_")}_plugin.py`,
      );
      writeFileSync(plugin, readFileSync(plugin, "utf8").replace("'Hello'", "'Howdy'"));
      await dev.waitFor(
        new RegExp(`executa ${app.toolId}: source changed, restarts on its next call`),
      );
      writeFileSync(path.join(app.dir, "bundle/style.css"), "body { color: red; }\n");
      await dev.waitFor(/bundle changed: windows reloaded/);

      expect(await dev.stop("SIGINT")).toBe(130);
      expect(dev.stdout()).toContain(
        `Recorded the session to ${path.join("fixtures", "s.jsonl")}\n`,
      );
    },
  );

  it("prints none of it with --quiet", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess(["--port", "0", "--no-watch", "--quiet"], app.dir);
    const s = await attach(dev);
    // The line would be written before the answer is sent: absent once the answer is in.
    expect(await s.call("storage", "get", { key: "visits" })).toMatchObject({ ok: true });
    expect(await s.call("storage", "delete", { key: "visits" })).toMatchObject({ ok: false });
    expect(await dev.stop("SIGINT")).toBe(130);
    expect(dev.stdout()).not.toMatch(/storage\.(get|delete)|Recorded the session/);
  });
});
