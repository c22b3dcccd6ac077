// Nexus serves app windows: focus-flow (examples/apps) loaded into the catalogue, a window opened
// for a signed-in user, `storage.*` and `window.*` over the runtime rpc route landing in the SQL
// stores and the APS `app` scope, and a second user refused on every route, by session and by
// window token. Real HTTP on 127.0.0.1, on SQLite and PostgreSQL.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/auth/scopes.js";
import { mintPat } from "../../src/routes/tokens.js";
import { FAMILY_AUDIENCES } from "../../src/tokens/audiences.js";
import { registry } from "../helpers/app-bundles.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { runtimeServer, type RuntimeServer } from "../helpers/runtime.js";

useDialectCleanup();

const WINDOWS = "/api/v1/anna-apps/runtime/windows";

interface Opened {
  window: { window_uuid: string; title: string; status: string };
  token: string;
  expires_in: number;
  url: string;
}

async function open(s: RuntimeServer, cookie: string, view = "main"): Promise<Opened> {
  const res = await s.http("POST", `${WINDOWS}?app_id=${s.appId}`, { cookie, body: { view } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Opened;
}

/** Reads SSE frames until `until` matches one, or `ms` pass; every `data:` payload seen. */
async function readEvents(
  res: Response,
  until: (e: Record<string, unknown>) => boolean,
  ms = 5000,
) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const seen: Record<string, unknown>[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((r) => setTimeout(() => r(undefined), deadline - Date.now())),
      ]);
      if (chunk === undefined || chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").find((l) => l.startsWith("data: "));
        if (data === undefined) continue;
        const event = JSON.parse(data.slice(6)) as Record<string, unknown>;
        seen.push(event);
        if (until(event)) return seen;
      }
    }
    return seen;
  } finally {
    await reader.cancel();
  }
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(`Nexus serving app windows on ${dialect.name}`, () => {
    it("opens focus-flow for a signed-in user; storage.* lands in the APS app scope", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      await s.install(alice.id);
      const opened = await open(s, alice.cookie);
      const wid = opened.window.window_uuid;
      expect(opened).toMatchObject({ expires_in: 120, window: { status: "active" } });
      expect(opened.url).toBe(
        `/anna-apps/focus-flow/${s.version}/index.html?wid=${wid}&t=${encodeURIComponent(opened.token)}`,
      );

      const log = [{ id: "fs-1", task: "Write the report", minutes: 25 }];
      const set = await s.rpc(opened.token, wid, "storage", "set", {
        key: "focus-flow/log",
        value: log,
      });
      expect(set, JSON.stringify(set)).toMatchObject({ ok: true });
      expect(
        await s.rpc(opened.token, wid, "storage", "get", { key: "focus-flow/log" }),
      ).toMatchObject({
        ok: true,
        result: { value: log },
      });
      // The same row through the storage REST API: scope app, owned by this app, for alice.
      const rest = await s.http(
        "GET",
        `/api/v1/storage/kv?scope=app&app_id=${s.appId}&key=${encodeURIComponent("focus-flow/log")}`,
        { cookie: alice.cookie },
      );
      expect(rest.status).toBe(200);
      expect(await rest.json()).toMatchObject({ value: log });

      const titled = await s.rpc(opened.token, wid, "window", "set_title", { title: "Deep work" });
      expect(titled, JSON.stringify(titled)).toMatchObject({ ok: true });
      const listed = await s.http("GET", `${WINDOWS}?app_id=${s.appId}`, { cookie: alice.cookie });
      expect(((await listed.json()) as { windows: Opened["window"][] }).windows).toMatchObject([
        { window_uuid: wid, title: "Deep work" },
      ]);
      // The token refreshes itself, and the refreshed one works.
      const refreshed = await s.rpc(opened.token, wid, "auth", "refresh");
      const fresh = (refreshed.result as { token: string }).token;
      expect(await s.rpc(fresh, wid, "storage", "get", { key: "focus-flow/log" })).toMatchObject({
        ok: true,
      });
      // The window is in the database, not this process: another node serves the same token.
      const other = s.secondNode().dispatcher;
      expect(
        await other.call(fresh, "storage", "get", { key: "focus-flow/log" }, { windowUuid: wid }),
      ).toMatchObject({ ok: true, result: { value: log } });
    });

    it("gives a window the URL of its version's bundle, which loads for the installed user", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      const bob = await s.user("bob@example.com");
      await s.install(alice.id);
      const version = await s.db
        .selectFrom("app_versions")
        .select("id")
        .where("app_id", "=", Number(s.appId))
        .where("version", "=", s.version)
        .executeTakeFirstOrThrow();
      await registry(s.db, s.blobs).bundle(Number(s.appId), version.id, {
        files: { "index.html": "<p>focus</p>" },
      });
      const opened = await open(s, alice.cookie);
      const frame = await s.http("GET", opened.url, {
        cookie: alice.cookie,
        headers: { "sec-fetch-dest": "iframe" },
      });
      expect(frame.status).toBe(200);
      expect(await frame.text()).toBe("<p>focus</p>");
      expect(frame.headers.get("content-security-policy")).toContain("default-src 'none'");
      // The app is not published: someone without it installed does not see it.
      expect((await s.http("GET", opened.url, { cookie: bob.cookie })).status).toBe(404);
    });

    it("refuses a second user on every route, by session and by window token", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      const bob = await s.user("bob@example.com");
      await s.install(alice.id);
      const mine = await open(s, alice.cookie);
      const wid = mine.window.window_uuid;
      const set = await s.rpc(mine.token, wid, "storage", "set", { key: "secret", value: "a" });
      expect(set.ok).toBe(true);

      // Bob has not installed the app: he cannot open it.
      const refused = await s.http("POST", `${WINDOWS}?app_id=${s.appId}`, {
        cookie: bob.cookie,
        body: { view: "main" },
      });
      expect(refused.status).toBe(404);
      // Alice's window does not exist for bob's session, on any verb.
      const byId = `${WINDOWS}/${encodeURIComponent(wid)}`;
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { title: "mine now" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await s.http(method, byId, { cookie: bob.cookie, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${byId}`).toBe(404);
      }
      const bobsList = await s.http("GET", WINDOWS, { cookie: bob.cookie });
      expect(await bobsList.json()).toEqual({ windows: [] });
      // Bob's PAT: the same refusals; a PAT without `aps:dev` is refused before that.
      const mintFor = async (scopes: Scope[]) =>
        (
          await mintPat(s.stores, {
            userId: bob.id,
            scopes,
            label: null,
            now: s.clock.now(),
            ttlMs: 3_600_000,
          })
        ).pat;
      const pat = { authorization: `Bearer ${await mintFor(["aps:dev"])}` };
      expect((await s.http("GET", byId, { headers: pat })).status).toBe(404);
      expect(await (await s.http("GET", WINDOWS, { headers: pat })).json()).toEqual({
        windows: [],
      });
      const narrow = { authorization: `Bearer ${await mintFor(["executas:publish"])}` };
      expect((await s.http("GET", WINDOWS, { headers: narrow })).status).toBe(403);

      // Bob's own window and token: never alice's window, never alice's rows.
      await s.install(bob.id);
      const his = await open(s, bob.cookie);
      expect(await s.rpc(his.token, wid, "storage", "get", { key: "secret" })).toMatchObject({
        ok: false,
        error: { code: "invalid_token" },
      });
      expect(
        await s.rpc(his.token, his.window.window_uuid, "storage", "get", { key: "secret" }),
      ).toMatchObject({ ok: true, result: { exists: false } });
      const bobsRest = await s.http(
        "GET",
        `/api/v1/storage/kv?scope=app&app_id=${s.appId}&key=secret`,
        {
          cookie: bob.cookie,
        },
      );
      expect(await bobsRest.json()).toMatchObject({ exists: false, value: null });
      // Alice's window is untouched by all of it.
      const still = await s.http("GET", byId, { cookie: alice.cookie });
      expect(await still.json()).toMatchObject({
        window: { status: "active", title: "Focus Flow" },
      });
    });

    it("takes only this server's window tokens, for their own window, and sessions for REST", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      await s.install(alice.id);
      const mine = await open(s, alice.cookie);
      const wid = mine.window.window_uuid;
      const refusedWith = async (token: string | undefined) =>
        ((await s.rpc(token, wid, "storage", "get", { key: "k" })).error ?? {}).code;

      expect(await refusedWith(undefined)).toBe("invalid_token");
      expect(await refusedWith("not-a-jwt")).toBe("invalid_token");
      // A per-invoke storage token of the same keyring, user and "tool" is another audience.
      const storageToken = await s.keyring.mint({
        audience: FAMILY_AUDIENCES.storage,
        userId: String(alice.id),
        toolId: `app:${s.appId}`,
        invokeId: wid,
        extra: { app_id: s.appId, version_id: s.version },
      });
      expect(await refusedWith(storageToken)).toBe("invalid_token");
      // Disabling the app for alice refuses her window's next call; enabling it serves it again.
      await s.install(alice.id, { enabled: false });
      expect(await refusedWith(mine.token)).toBe("invalid_token");
      await s.install(alice.id);
      expect(await refusedWith(mine.token)).toBeUndefined();
      // Expired (120 s and the 5 s tolerance): the keyring's clock is the server's.
      s.clock.advance(126_000);
      expect(await refusedWith(mine.token)).toBe("invalid_token");

      // REST and the event stream need a session (or a PAT); a window token is not one.
      for (const path of [WINDOWS, "/api/v1/anna-apps/runtime/events/stream"]) {
        const res = await s.http("GET", path, { token: mine.token });
        expect(res.status, path).toBe(401);
      }
      expect(
        (await s.http("GET", `${WINDOWS}?app_id=focus-flow`, { cookie: alice.cookie })).status,
      ).toBe(400);
      // A Host this server does not answer for (DNS rebinding) is refused on the runtime too.
      // (fetch cannot send another Host, so this one request goes through node:http.)
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = request(`${s.url}/api/v1/anna-apps/runtime/rpc`, {
          method: "POST",
          headers: {
            host: "evil.example",
            "content-type": "application/json",
            "x-anna-app-token": mine.token,
          },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(
          JSON.stringify({
            id: "1",
            window_uuid: wid,
            ns: "storage",
            method: "get",
            args: { key: "k" },
          }),
        );
      });
      expect(rebound).toBe(421);
      // A cookie-authenticated write from another site is refused before the runtime sees it.
      const forged = await s.http("POST", `${WINDOWS}?app_id=${s.appId}`, {
        cookie: alice.cookie,
        body: { view: "main" },
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      });
      expect(forged.status).toBe(403);
    });

    it("lands every one of 16 concurrent runtime_state patches, from two nodes", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      await s.install(alice.id);
      const { window } = await open(s, alice.cookie);
      const other = s.secondNode().dispatcher;
      const keys = Array.from({ length: 16 }, (_, i) => `k${i}`);
      await Promise.all(
        keys.map(async (k, i) => {
          const patch = { runtime_state_patch: { [k]: i } };
          if (i % 2 === 0) {
            await other.patchWindow(window.window_uuid, patch, String(alice.id));
            return;
          }
          const res = await s.http("PATCH", `${WINDOWS}/${window.window_uuid}`, {
            cookie: alice.cookie,
            body: patch,
          });
          expect(res.status, await res.clone().text()).toBe(200);
        }),
      );
      const got = await s.http("GET", `${WINDOWS}/${window.window_uuid}`, { cookie: alice.cookie });
      const state = ((await got.json()) as { window: { runtime_state: object } }).window
        .runtime_state;
      expect(Object.keys(state).sort()).toEqual([...keys].sort());
    });

    it("streams a user's own app events, never another user's", async () => {
      const s = await runtimeServer(await dialect.open());
      const alice = await s.user("alice@example.com");
      const bob = await s.user("bob@example.com");
      await s.install(alice.id);
      await s.install(bob.id);
      const mine = await open(s, alice.cookie);
      const his = await open(s, bob.cookie);
      const stream = await s.http(
        "GET",
        `/api/v1/anna-apps/runtime/events/stream?app_id=${s.appId}`,
        {
          cookie: alice.cookie,
        },
      );
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
      await s.rpc(his.token, his.window.window_uuid, "window", "set_title", { title: "bob's" });
      await s.rpc(mine.token, mine.window.window_uuid, "window", "set_title", { title: "alice's" });
      const seen = await readEvents(stream, (e) => e.window_uuid === mine.window.window_uuid);
      expect(seen.some((e) => e.window_uuid === mine.window.window_uuid)).toBe(true);
      expect(seen.filter((e) => e.window_uuid === his.window.window_uuid)).toEqual([]);
    });
  });
}
