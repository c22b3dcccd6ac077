// /api/v1/storage/* with per-invoke storage_tokens (H15; `Authorization: Bearer <jwt>`) through
// the whole app on SQLite and PostgreSQL: the token decides the user, the tool and the scopes;
// a token for another tool, user or audience is refused, as are expired, revoked, forged and
// alg-confused ones, and the token's max_calls is a hard budget.
import { base64url, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { mintPat } from "../../src/routes/tokens.js";
import { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "../../src/tokens/audiences.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { detail, type Harness } from "../helpers/harness.js";
import { storageHarness } from "../helpers/storage.js";

useDialectCleanup();

async function userOf(h: Harness, cookie: string) {
  const me = (await (await h.req("GET", "/api/v1/me", { cookie })).json()) as { id: number };
  const { pat, token } = await mintPat(h.stores, {
    userId: me.id,
    scopes: ["aps:dev"],
    label: null,
    now: h.clock.now(),
    ttlMs: 86_400_000,
  });
  return { id: me.id, pat, patId: token.id };
}

/** A storage_token from `dev/storage/mint` (a dev session of kind storage). */
async function storageToken(h: Harness, pat: string, body: Record<string, unknown> = {}) {
  const res = await h.req("POST", "/api/v1/anna-apps/dev/storage/mint", {
    body: { pat, app_slug: "notes", executa_tool_id: "tool-a", ...body },
  });
  expect(res.status).toBe(200);
  const out = (await res.json()) as { storage_token: string; dev_session_uuid: string };
  return { ...out, auth: { authorization: `Bearer ${out.storage_token}` } };
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe.each(DIALECTS)("storage REST with storage_tokens on $name", (d) => {
  it.skipIf(d.skip)(
    "acts for the token's user and tool: the rows are the ones its session sees",
    async () => {
      const h = await storageHarness(await d.open());
      const cookie = await h.signup("a@example.com");
      const a = await userOf(h, cookie);
      const t = await storageToken(h, a.pat);
      // No scope: a plugin's default, `tool`.
      const set = await h.req("PUT", "/api/v1/storage/kv", {
        headers: t.auth,
        body: { key: "draft", value: { n: 1 } },
      });
      expect(set.status).toBe(200);
      const seen = await h.req("GET", "/api/v1/storage/kv?scope=tool&tool_id=tool-a&key=draft", {
        cookie,
      });
      expect(await seen.json()).toMatchObject({ exists: true, value: { n: 1 } });
      // Naming its own tool is fine.
      const own = await h.req("GET", "/api/v1/storage/kv?scope=tool&tool_id=tool-a&key=draft", {
        headers: t.auth,
      });
      expect(await own.json()).toMatchObject({ exists: true, value: { n: 1 } });
      // A router-minted per-invoke token (no dev session) is accepted the same way.
      const invokeToken = await h.keyring.mint({
        userId: String(a.id),
        toolId: "tool-a",
        invokeId: "inv-42",
        audience: FAMILY_AUDIENCES.storage,
        extra: { allowed_scopes: ["tool", "user"], max_calls: 200 },
      });
      const viaInvoke = await h.req("GET", "/api/v1/storage/kv?key=draft", {
        headers: bearer(invokeToken),
      });
      expect(await viaInvoke.json()).toMatchObject({ exists: true, value: { n: 1 } });
    },
  );

  it.skipIf(d.skip)(
    "refuses a token on another tool, another app, and outside its scopes",
    async () => {
      const h = await storageHarness(await d.open());
      const a = await userOf(h, await h.signup("a@example.com"));
      const t = await storageToken(h, a.pat);
      const other = await h.req("GET", "/api/v1/storage/kv?scope=tool&tool_id=tool-b&key=k", {
        headers: t.auth,
      });
      expect(other.status).toBe(403);
      expect((await detail(other)).code).toBe("forbidden");
      const write = await h.req("PUT", "/api/v1/storage/kv?scope=tool&tool_id=tool-b", {
        headers: t.auth,
        body: { key: "k", value: 1 },
      });
      expect(write.status).toBe(403);
      const app = await h.req("GET", "/api/v1/storage/kv?scope=app&key=k", { headers: t.auth });
      expect(app.status).toBe(403);
      expect(await detail(app)).toMatchObject({
        code: "not_granted",
        message: "storage_token does not permit scope='app'; allowed=['tool', 'user']",
      });
      // An app's token has its app; another app_id is refused.
      const appToken = await storageToken(h, a.pat, {
        executa_tool_id: undefined,
        allowed_scopes: ["user", "app"],
      });
      const ok = await h.req("PUT", "/api/v1/storage/kv", {
        headers: appToken.auth,
        body: { key: "k", value: 2 },
      });
      expect(ok.status).toBe(200);
      const notes = await h.req("GET", "/api/v1/storage/kv?scope=app&app_id=notes&key=k", {
        headers: appToken.auth,
      });
      expect(await notes.json()).toMatchObject({ exists: true, value: 2 });
      const wrongApp = await h.req("GET", "/api/v1/storage/kv?scope=app&app_id=todo&key=k", {
        headers: appToken.auth,
      });
      expect(wrongApp.status).toBe(403);
      const tool = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", {
        headers: appToken.auth,
      });
      expect(tool.status).toBe(403);
    },
  );

  it.skipIf(d.skip)(
    "never shows one user's rows to another user's token, whatever cookie rides along",
    async () => {
      const h = await storageHarness(await d.open());
      const cookieA = await h.signup("a@example.com");
      const cookieB = await h.signup("b@example.com");
      const b = await userOf(h, cookieB);
      await userOf(h, cookieA);
      const put = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        cookie: cookieA,
        body: { key: "secret", value: "a's" },
      });
      expect(put.status).toBe(200);
      const tb = await storageToken(h, b.pat);
      for (const opts of [{ headers: tb.auth }, { headers: tb.auth, cookie: cookieA }]) {
        const res = await h.req("GET", "/api/v1/storage/kv?scope=user&key=secret", opts);
        expect(await res.json()).toMatchObject({ exists: false, value: null });
      }
      const list = await h.req("GET", "/api/v1/storage/list?scope=user", { headers: tb.auth });
      expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
      // A token whose claims were changed to name user A no longer verifies.
      const [hd, p, s] = tb.storage_token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, user_id: "1", sub: "1" })).toString(
        "base64url",
      );
      const res = await h.req("GET", "/api/v1/storage/kv?scope=user&key=secret", {
        headers: bearer(`${hd}.${forged}.${s}`),
      });
      expect(res.status).toBe(401);
    },
  );

  it.skipIf(d.skip)(
    "refuses another family's audience, an expired token, and revoked sessions and PATs",
    async () => {
      const h = await storageHarness(await d.open());
      const cookie = await h.signup("a@example.com");
      const a = await userOf(h, cookie);
      const llm = await h.keyring.mint({
        userId: String(a.id),
        toolId: "tool-a",
        invokeId: "inv-1",
        audience: APP_SESSION_AUDIENCE,
      });
      const wrongAud = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: bearer(llm) });
      expect(wrongAud.status).toBe(403);

      const expiring = await storageToken(h, a.pat);
      h.clock.advance(601_000);
      const expired = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: expiring.auth });
      expect(expired.status).toBe(401);
      expect((await detail(expired)).code).toBe("token_expired");

      const revokedOne = await storageToken(h, a.pat);
      const revoke = await h.req("POST", "/api/v1/anna-apps/dev/session/revoke", {
        body: { pat: a.pat, app_session_uuid: revokedOne.dev_session_uuid },
      });
      expect(revoke.status).toBe(200);
      const afterRevoke = await h.req("GET", "/api/v1/storage/kv?key=k", {
        headers: revokedOne.auth,
      });
      expect(afterRevoke.status).toBe(401);
      expect((await detail(afterRevoke)).code).toBe("token_revoked");

      const ofPat = await storageToken(h, a.pat);
      const patRevoke = await h.req("POST", `/api/v1/anna-apps/dev/tokens/${a.patId}/revoke`, {
        cookie,
      });
      expect(patRevoke.status).toBe(204);
      const afterPat = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: ofPat.auth });
      expect(afterPat.status).toBe(401);
      expect((await detail(afterPat)).code).toBe("token_revoked");
    },
  );

  it.skipIf(d.skip)(
    "refuses alg=none, HS256 keyed with the public key, and a foreign signature",
    async () => {
      const h = await storageHarness(await d.open());
      const a = await userOf(h, await h.signup("a@example.com"));
      const t = await storageToken(h, a.pat);
      const [hd, p] = t.storage_token.split(".") as [string, string, string];
      const header = JSON.parse(Buffer.from(hd, "base64url").toString()) as { kid: string };
      const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>;
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
      const [jwk] = (await h.keyring.jwks()).keys;
      const forgeries = [
        `${enc({ alg: "none", kid: header.kid, typ: "JWT" })}.${p}.`,
        ...(await Promise.all(
          [base64url.decode(jwk!.x!), new TextEncoder().encode(JSON.stringify(jwk))].map((secret) =>
            new SignJWT(claims)
              .setProtectedHeader({ alg: "HS256", kid: header.kid, typ: "JWT" })
              .sign(secret),
          ),
        )),
        `${hd}.${p}.${Buffer.alloc(64, 1).toString("base64url")}`,
      ];
      for (const forged of forgeries) {
        const res = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
          headers: bearer(forged),
          body: { key: "k", value: 1 },
        });
        expect(res.status).toBe(401);
      }
      const list = await h.req("GET", "/api/v1/storage/list?scope=user", { headers: t.auth });
      expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
    },
  );

  it.skipIf(d.skip)("stops a token at its max_calls with rate_limited", async () => {
    const h = await storageHarness(await d.open());
    const a = await userOf(h, await h.signup("a@example.com"));
    const t = await storageToken(h, a.pat, { max_calls: 2 });
    for (let i = 0; i < 2; i++) {
      const ok = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: t.auth });
      expect(ok.status).toBe(200);
    }
    const over = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: t.auth });
    expect(over.status).toBe(429);
    expect(await detail(over)).toMatchObject({ code: "rate_limited", rpc_code: -32026 });
    // Another invoke has its own budget.
    const fresh = await storageToken(h, a.pat, { max_calls: 2 });
    const ok = await h.req("GET", "/api/v1/storage/kv?key=k", { headers: fresh.auth });
    expect(ok.status).toBe(200);
  });
});
