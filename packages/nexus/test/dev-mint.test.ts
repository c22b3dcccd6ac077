// The PAT-authed dev mint endpoints (spec L7535–7580, real-world-cli.md D4–D8) and the JWKS, on
// SQLite and PostgreSQL: the published CLI's request shapes, isolation between users, scopes,
// rate limits, and revocation that the token verifier sees at once.
import { describe, expect, it } from "vitest";
import { mintPat } from "../src/routes/tokens.js";
import { verifyNexusToken } from "../src/tokens/verify-token.js";
import { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "../src/tokens/audiences.js";
import type { Scope } from "../src/auth/scopes.js";
import { createApp } from "../src/http/app.js";
import { resolveConfig } from "../src/core/config.js";
import { nullLogger } from "../src/core/logger.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, type Harness, harness, ORIGIN } from "./helpers/harness.js";

useDialectCleanup();

const DEV = "/api/v1/anna-apps/dev";
const DAY = 86_400_000;

async function developer(h: Harness, email: string, scopes: Scope[] = ["aps:dev"]) {
  const cookie = await h.signup(email);
  const user = (await h.stores.users.findCredentials(email))!.user;
  const { pat, token } = await mintPat(h.stores, {
    userId: user.id,
    scopes,
    label: null,
    now: h.clock.now(),
    ttlMs: 90 * DAY,
  });
  return { cookie, user, pat, patId: token.id };
}

const post = (h: Harness, path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.req("POST", `${DEV}${path}`, { body, headers });

async function ok<T = Record<string, unknown>>(res: Response): Promise<T> {
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

interface Minted {
  app_session_uuid: string;
  app_session_token: string;
  token: string;
  expires_in: number;
  kind: string;
  submode: string | null;
  expires_at: string;
  max_lifetime_at: string;
}

const mintSession = async (h: Harness, pat: string, extra: Record<string, unknown> = {}) =>
  ok<Minted>(
    await post(h, "/session/mint", { pat, kind: "complete", app_slug: "notes", ...extra }),
  );

const verify = (h: Harness, token: string, audience: string, binding = {}) =>
  verifyNexusToken(
    { keyring: h.keyring, stores: h.stores, clock: h.clock },
    token,
    audience,
    binding,
  );

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return "accepted";
}

describe.each(DIALECTS)("dev mint endpoints on $name", (d) => {
  const setup = async (config = {}) => harness(await d.open(), config);

  it.skipIf(d.skip)(
    "session/mint answers the published CLI's shape with a token bound to the user, app and session",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const m = await mintSession(h, a.pat);
      expect(m.app_session_uuid).toMatch(/^aps_[0-9a-f]{32}$/);
      expect(m.expires_in).toBe(600);
      expect(m.token).toBe(m.app_session_token);
      expect(m).toMatchObject({ kind: "complete", submode: null });
      const v = await verify(h, m.app_session_token, APP_SESSION_AUDIENCE, {
        userId: String(a.user.id),
        toolId: "app:notes",
        invokeId: m.app_session_uuid,
      });
      expect(v.claims).toMatchObject({
        type: "anna_app_session",
        app_session_uuid: m.app_session_uuid,
        app_slug: "notes",
        kind: "complete",
      });
      expect(v.session?.uuid).toBe(m.app_session_uuid);

      const agent = await mintSession(h, a.pat, {
        kind: "agent",
        submode: "fixed",
        fixed_client_id: "client-1",
        label: "anna-app dev",
        quota_caps: null,
        system_prompt: null,
        ttl_seconds: 120,
      });
      expect(agent).toMatchObject({ kind: "agent", submode: "fixed", expires_in: 120 });
      expect((await verify(h, agent.token, APP_SESSION_AUDIENCE)).claims).toMatchObject({
        submode: "fixed",
        fixed_client_id: "client-1",
      });
      // fixed without a client id is a clear 400
      const bad = await post(h, "/session/mint", {
        pat: a.pat,
        kind: "agent",
        app_slug: "notes",
        submode: "fixed",
      });
      expect(bad.status).toBe(400);
      expect((await detail(bad)).message).toMatch(/fixed_client_id/);
      // a session token is not a storage token
      expect(await refusal(verify(h, m.token, FAMILY_AUDIENCES.storage))).toBe("forbidden");
      const logs = h.logs.join("\n");
      for (const secret of [a.pat, m.token, agent.token]) expect(logs).not.toContain(secret);
    },
  );

  it.skipIf(d.skip)(
    "accepts the PAT in the body, the query or as Bearer; refuses cookies, missing scope, revoked and expired PATs",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const body = { kind: "complete", app_slug: "notes" };
      expect(
        (await post(h, "/session/mint", body, { authorization: `Bearer ${a.pat}` })).status,
      ).toBe(200);
      expect((await h.req("GET", `${DEV}/sessions?pat=${a.pat}`)).status).toBe(200);
      const none = await post(h, "/session/mint", body);
      expect(none.status).toBe(401);
      expect((await detail(none)).message).toMatch(/pat/);
      const cookieOnly = await h.req("POST", `${DEV}/session/mint`, {
        body,
        cookie: a.cookie,
        headers: { origin: ORIGIN },
      });
      expect(cookieOnly.status).toBe(401);
      const narrow = await developer(h, "narrow@example.com", ["executas:publish"]);
      const scoped = await post(h, "/storage/mint", { pat: narrow.pat, app_slug: "notes" });
      expect(scoped.status).toBe(403);
      expect(await detail(scoped)).toMatchObject({ detail: "missing_scope", missing: ["aps:dev"] });
      expect((await post(h, "/session/mint", { ...body, pat: "anna_pat_nope" })).status).toBe(401);
      await h.stores.tokens.revoke(a.user.id, a.patId, h.clock.now());
      const revoked = await post(h, "/session/mint", { ...body, pat: a.pat });
      expect(revoked.status).toBe(401);
      expect((await detail(revoked)).code).toBe("token_revoked");
      const b = await developer(h, "b@example.com");
      h.clock.advance(91 * DAY);
      expect(
        (await detail(await post(h, "/storage/mint", { pat: b.pat, app_slug: "x" }))).code,
      ).toBe("token_expired");
      // a developer whose access an admin revoked cannot mint
      const c = await developer(h, "c@example.com");
      await h.stores.users.revokeDeveloper(c.user.id, h.clock.now());
      expect((await detail(await post(h, "/session/mint", { ...body, pat: c.pat }))).code).toBe(
        "DEVELOPER_REVOKED",
      );
    },
  );

  it.skipIf(d.skip)(
    "refresh slides the idle deadline up to the hard one; expired or revoked sessions answer 410",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const m = await mintSession(h, a.pat);
      h.clock.advance(20 * 60_000);
      const r = await ok<Minted>(
        await post(h, "/session/refresh", { pat: a.pat, app_session_uuid: m.app_session_uuid }),
      );
      expect(r.app_session_uuid).toBe(m.app_session_uuid);
      expect(r.app_session_token).not.toBe(m.app_session_token);
      expect(Date.parse(r.expires_at)).toBe(h.clock.now() + 30 * 60_000);
      expect(await refusal(verify(h, r.token, APP_SESSION_AUDIENCE))).toBe("accepted");
      // idle past 30 min: gone
      h.clock.advance(31 * 60_000);
      const idle = await post(h, "/session/refresh", {
        pat: a.pat,
        app_session_uuid: m.app_session_uuid,
      });
      expect(idle.status).toBe(410);
      expect((await detail(idle)).code).toBe("APP_SESSION_EXPIRED");
      // refreshed every 20 min, it still ends at 24 h
      const long = await mintSession(h, a.pat);
      const refresh = () =>
        post(h, "/session/refresh", { pat: a.pat, app_session_uuid: long.app_session_uuid });
      let last = 200;
      for (let i = 0; i < 80 && last === 200; i++) {
        h.clock.advance(20 * 60_000);
        last = (await refresh()).status;
      }
      expect(last).toBe(410);
      // ended by the hard deadline, within one refresh interval of it
      const pastMax = h.clock.now() - Date.parse(long.max_lifetime_at);
      expect(pastMax).toBeGreaterThanOrEqual(0);
      expect(pastMax).toBeLessThan(20 * 60_000);
      // unknown uuid: 404
      const unknown = await post(h, "/session/refresh", {
        pat: a.pat,
        app_session_uuid: `aps_${"0".repeat(32)}`,
      });
      expect(unknown.status).toBe(404);
    },
  );

  it.skipIf(d.skip)(
    "a second user's PAT can neither refresh, revoke, list nor revoke-all the first user's sessions",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const b = await developer(h, "b@example.com");
      const m = await mintSession(h, a.pat);
      const uuid = m.app_session_uuid;
      expect(
        (await post(h, "/session/refresh", { pat: b.pat, app_session_uuid: uuid })).status,
      ).toBe(404);
      expect(
        (await post(h, "/session/revoke", { pat: b.pat, app_session_uuid: uuid })).status,
      ).toBe(404);
      expect(await ok(await post(h, "/session/revoke-all", { pat: b.pat }))).toEqual({
        revoked: 0,
      });
      const listed = await ok<{ sessions: unknown[] }>(
        await h.req("GET", `${DEV}/sessions?pat=${b.pat}&include_expired=true`),
      );
      expect(listed.sessions).toEqual([]);
      // b's token is refused where a's binding is required
      const bm = await mintSession(h, b.pat);
      expect(
        await refusal(verify(h, bm.token, APP_SESSION_AUDIENCE, { userId: String(a.user.id) })),
      ).toBe("forbidden");
      // a's session is untouched
      expect(await refusal(verify(h, m.token, APP_SESSION_AUDIENCE))).toBe("accepted");
      expect(
        (await post(h, "/session/refresh", { pat: a.pat, app_session_uuid: uuid })).status,
      ).toBe(200);
    },
  );

  it.skipIf(d.skip)(
    "revoke, revoke-all and PAT revocation end tokens at the verifier before they expire",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const one = await mintSession(h, a.pat);
      expect(
        await ok(
          await post(h, "/session/revoke", { pat: a.pat, app_session_uuid: one.app_session_uuid }),
        ),
      ).toEqual({ revoked: true });
      expect(await refusal(verify(h, one.token, APP_SESSION_AUDIENCE))).toBe("token_revoked");
      expect(
        (await post(h, "/session/refresh", { pat: a.pat, app_session_uuid: one.app_session_uuid }))
          .status,
      ).toBe(410);

      const notes = await mintSession(h, a.pat);
      const other = await mintSession(h, a.pat, { app_slug: "other" });
      const st = await ok<{ storage_token: string }>(
        await post(h, "/storage/mint", { pat: a.pat, app_slug: "notes" }),
      );
      expect(
        await ok(await post(h, "/session/revoke-all", { pat: a.pat, app_slug: "notes" })),
      ).toEqual({ revoked: 2 });
      expect(await refusal(verify(h, notes.token, APP_SESSION_AUDIENCE))).toBe("token_revoked");
      expect(await refusal(verify(h, st.storage_token, FAMILY_AUDIENCES.storage))).toBe(
        "token_revoked",
      );
      expect(await refusal(verify(h, other.token, APP_SESSION_AUDIENCE))).toBe("accepted");
      expect(
        await ok(await post(h, "/session/revoke-all", { pat: a.pat, only_expired: true })),
      ).toEqual({ revoked: 0 });
      const appId = await post(h, "/session/revoke-all", { pat: a.pat, app_id: 12 });
      expect(appId.status).toBe(400);

      // revoking the PAT (as `anna-app token revoke` does) ends every token it minted
      const rev = await h.req("POST", `${DEV}/tokens/${a.patId}/revoke`, {
        headers: { authorization: `Bearer ${a.pat}` },
      });
      expect(rev.status).toBe(204);
      expect(await refusal(verify(h, other.token, APP_SESSION_AUDIENCE))).toBe("token_revoked");
    },
  );

  it.skipIf(d.skip)(
    "sessions lists the caller's live app sessions, filtered and limited",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const s1 = await mintSession(h, a.pat);
      await mintSession(h, a.pat, { app_slug: "other" });
      await post(h, "/storage/mint", { pat: a.pat, app_slug: "notes" });
      const list = async (q: string) =>
        (
          await ok<{ sessions: { app_session_uuid: string; kind: string; expired: boolean }[] }>(
            await h.req("GET", `${DEV}/sessions?pat=${a.pat}${q}`),
          )
        ).sessions;
      expect((await list("")).map((s) => s.kind)).toEqual(["complete", "complete"]);
      expect((await list("&app_slug=notes")).map((s) => s.app_session_uuid)).toEqual([
        s1.app_session_uuid,
      ]);
      expect(await list("&limit=1")).toHaveLength(1);
      expect((await list("&kind=storage")).map((s) => s.kind)).toEqual(["storage"]);
      h.clock.advance(31 * 60_000);
      expect(await list("")).toEqual([]);
      expect((await list("&include_expired=true")).every((s) => s.expired)).toBe(true);
      expect((await h.req("GET", `${DEV}/sessions?pat=${a.pat}&limit=500`)).status).toBe(400);
    },
  );

  it.skipIf(d.skip)(
    "storage/mint gives an aps-storage token bound to the executa with the asked scopes",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      // executa dev's body
      const m = await ok<{
        storage_token: string;
        expires_in: number;
        allowed_scopes: string[];
        max_calls: number;
      }>(
        await post(h, "/storage/mint", {
          pat: a.pat,
          app_slug: "executa-notes",
          executa_tool_id: "tool-notes-1",
          allowed_scopes: ["user", "app", "tool"],
          ttl_seconds: 600,
        }),
      );
      expect(m).toMatchObject({
        expires_in: 600,
        allowed_scopes: ["user", "app", "tool"],
        max_calls: 200,
      });
      const v = await verify(h, m.storage_token, FAMILY_AUDIENCES.files, {
        userId: String(a.user.id),
        toolId: "tool-notes-1",
      });
      expect(v.claims).toMatchObject({ allowed_scopes: ["user", "app", "tool"], max_calls: 200 });
      expect(
        await refusal(verify(h, m.storage_token, FAMILY_AUDIENCES.storage, { toolId: "tool-b" })),
      ).toBe("forbidden");
      expect(
        await refusal(
          verify(h, m.storage_token, FAMILY_AUDIENCES.storage, { invokeId: "another-invoke" }),
        ),
      ).toBe("forbidden");
      expect(await refusal(verify(h, m.storage_token, FAMILY_AUDIENCES.sampling))).toBe(
        "forbidden",
      );
      // anna-app dev's body: no executa, so user + app; `tool` needs an executa
      const app = await ok<{ allowed_scopes: string[]; max_calls: number }>(
        await post(h, "/storage/mint", {
          pat: a.pat,
          app_slug: "notes",
          ttl_seconds: 600,
          max_calls: 50,
        }),
      );
      expect(app).toMatchObject({ allowed_scopes: ["user", "app"], max_calls: 50 });
      const noTool = await post(h, "/storage/mint", {
        pat: a.pat,
        app_slug: "notes",
        allowed_scopes: ["tool"],
      });
      expect(noTool.status).toBe(400);
      expect((await post(h, "/storage/mint", { pat: a.pat, app_slug: "Bad Slug" })).status).toBe(
        400,
      );
      h.clock.advance(606_000);
      expect(await refusal(verify(h, m.storage_token, FAMILY_AUDIENCES.storage))).toBe(
        "token_expired",
      );
      expect(h.logs.join("\n")).not.toContain(m.storage_token);
      expect(h.logs.join("\n")).not.toContain(a.pat);
    },
  );

  it.skipIf(d.skip)("rate-limits mints per user with 429 and Retry-After", async () => {
    const h = await setup({ rateLimits: { mints: 3, mintWindowMs: 60_000 } });
    const a = await developer(h, "a@example.com");
    const b = await developer(h, "b@example.com");
    for (let i = 0; i < 3; i++) await mintSession(h, a.pat);
    const over = await post(h, "/storage/mint", { pat: a.pat, app_slug: "notes" });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await detail(over)).code).toBe("rate_limited");
    await mintSession(h, b.pat); // another user is not affected
    h.clock.advance(60_000);
    await mintSession(h, a.pat);
  });

  it.skipIf(d.skip)(
    "serves the JWKS: public keys only, cache headers, both keys across a rotation",
    async () => {
      const h = await setup();
      const a = await developer(h, "a@example.com");
      const m = await mintSession(h, a.pat);
      const res = await h.req("GET", "/.well-known/jwks.json");
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      const text = await res.text();
      const jwks = JSON.parse(text) as { keys: Record<string, unknown>[] };
      expect(jwks.keys).toHaveLength(1);
      expect(Object.keys(jwks.keys[0]!).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"]);
      expect(text).not.toMatch(/"d"/);
      const oldKid = jwks.keys[0]!.kid;
      const r = await h.keyring.rotate();
      const after = (await (await h.req("GET", "/.well-known/jwks.json")).json()) as typeof jwks;
      expect(after.keys.map((k) => k.kid)).toEqual([r.kid, oldKid]);
      const m2 = await mintSession(h, a.pat);
      const kidOf = (t: string) =>
        (JSON.parse(Buffer.from(t.split(".")[0]!, "base64url").toString()) as { kid: string }).kid;
      expect(kidOf(m.token)).toBe(oldKid);
      expect(kidOf(m2.token)).toBe(r.kid);
      expect(await refusal(verify(h, m.token, APP_SESSION_AUDIENCE))).toBe("accepted");
    },
  );

  it.skipIf(d.skip)("answers 503 for minting and JWKS when the server has no keyring", async () => {
    const h = await setup();
    const a = await developer(h, "a@example.com");
    const bare = createApp({
      stores: h.stores,
      clock: h.clock,
      logger: nullLogger,
      config: resolveConfig(),
      pingDatabase: async () => {},
    });
    const at = (path: string, init?: RequestInit) =>
      bare.request(`${ORIGIN}${path}`, {
        ...init,
        headers: { host: "127.0.0.1:8080", "content-type": "application/json" },
      });
    expect((await at("/.well-known/jwks.json")).status).toBe(503);
    const res = await at(`${DEV}/session/mint`, {
      method: "POST",
      body: JSON.stringify({ pat: a.pat, kind: "complete", app_slug: "notes" }),
    });
    expect(res.status).toBe(503);
    expect(
      await h.stores.devSessions.list(
        a.user.id,
        { kinds: ["complete"], includeExpired: true },
        10,
        h.clock.now(),
      ),
    ).toEqual([]);
  });
});
