// Attack: an app that stores its own window token and the token of an `auth.refresh`, and an
// entry_payload carrying a token, under `anna-app dev`: neither the session recording nor the
// harness's log may hold any of them, nor any other JWT (window tokens are JWTs).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Logger } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { rpc, scaffoldTestApp, startHarness, tokenOf } from "./helpers.js";

const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/;

function collectingLogger(lines: string[]): Logger {
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, message, fields }));
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("anna-app dev never records or logs a live token", () => {
  it("keeps window tokens and auth.refresh tokens out of the recording and the log", async () => {
    const app = await scaffoldTestApp();
    const record = path.join(app.dir, "attack.jsonl");
    const log: string[] = [];
    const server = await startHarness(app, { record, logger: collectingLogger(log) });
    const token = tokenOf(server);
    const wid = server.window.window_uuid;
    const refresh = await fetch(`${server.url}dev/api/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "auth.refresh", window_uuid: wid }),
    });
    const refreshed = ((await refresh.json()) as { page_event: { payload: { token: string } } })
      .page_event.payload.token;
    expect(refreshed).toMatch(JWT);
    await fetch(`${server.url}dev/api/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        kind: "entry_payload",
        window_uuid: wid,
        payload: { token: "entry-secret-7373", note: `copied ${refreshed}` },
      }),
    });
    const stored = await rpc(server, token, "storage", "set", {
      key: "leak",
      value: { mine: token, refreshed, url: `${server.window.url}&again=${token}` },
    });
    expect(stored.body).toMatchObject({ ok: true });
    // A bad request is logged; its body carries a token too.
    await rpc(server, "not-a-token", "storage", "set", { key: "x", value: token });
    await server.close();

    const text = readFileSync(record, "utf8");
    expect(text).toContain('"key":"leak"');
    for (const [where, content] of [
      ["the recording", text],
      ["the log", log.join("\n")],
    ] as const) {
      expect(content.includes(token), `${where} holds the window token`).toBe(false);
      expect(content.includes(refreshed), `${where} holds the auth.refresh token`).toBe(false);
      expect(content.includes("entry-secret-7373"), `${where} holds a token key's value`).toBe(
        false,
      );
      expect(JWT.test(content), `${where} holds a JWT`).toBe(false);
    }
  });
});
