import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, type Harness, harness, ORIGIN } from "./helpers/harness.js";

useDialectCleanup();

const DEV = "/api/v1/anna-apps/dev";

async function start(h: Harness) {
  const res = await h.req("POST", `${DEV}/login/start`, {
    headers: { "content-type": "application/json" },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    device_code: string;
    user_code: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  };
}
const poll = (h: Harness, device_code: string) =>
  h.req("POST", `${DEV}/login/poll`, { body: { device_code } });
const approve = (
  h: Harness,
  cookie: string,
  user_code: string,
  headers: Record<string, string> = { origin: ORIGIN },
) => h.req("POST", `${DEV}/login/approve`, { cookie, body: { user_code }, headers });

async function loginPat(h: Harness, cookie: string): Promise<string> {
  const s = await start(h);
  expect((await approve(h, cookie, s.user_code)).status).toBe(200);
  const res = await poll(h, s.device_code);
  expect(res.status).toBe(200);
  return ((await res.json()) as { pat: string }).pat;
}

describe.each(DIALECTS)("device login and PATs on $name", (d) => {
  const setup = async () => harness(await d.open());

  it.skipIf(d.skip)(
    "runs start → 202 pending → approve → 200 with a PAT once → 410 after",
    async () => {
      const h = await setup();
      const cookie = await h.signup("dev@example.com");
      const s = await start(h);
      expect(s.verification_uri_complete).toBe(`/device?user_code=${s.user_code}`);
      expect(s.user_code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(s.expires_in).toBe(600);
      expect(s.interval).toBe(5);
      expect((await poll(h, s.device_code)).status).toBe(202);
      // lower case without the dash is accepted, the way people type codes
      const ok = await approve(h, cookie, s.user_code.toLowerCase().replace("-", ""));
      expect(ok.status).toBe(200);
      const done = await poll(h, s.device_code);
      expect(done.status).toBe(200);
      const body = (await done.json()) as { pat: string; expires_in: number; scopes: string[] };
      expect(body.pat).toMatch(/^anna_pat_/);
      expect(body.expires_in).toBe(90 * 86400);
      expect(body.scopes).toContain("aps:dev");
      expect((await poll(h, s.device_code)).status).toBe(410);
      const me = await h.req("GET", "/api/v1/me", {
        headers: { authorization: `Bearer ${body.pat}` },
      });
      expect(await me.json()).toMatchObject({ email: "dev@example.com", auth: "pat" });
      expect(h.logs.join("\n")).not.toContain(body.pat);
      expect(h.logs.join("\n")).not.toContain(s.device_code);
    },
  );

  it.skipIf(d.skip)(
    "hands the PAT to exactly one of several concurrent polls and stores only hashes",
    async () => {
      const h = await setup();
      const cookie = await h.signup("race@example.com");
      const s = await start(h);
      await approve(h, cookie, s.user_code);
      const results = await Promise.all(Array.from({ length: 6 }, () => poll(h, s.device_code)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
      const { pat } = (await results.find((r) => r.status === 200)!.json()) as { pat: string };
      const user = (await h.stores.users.findCredentials("race@example.com"))!.user;
      const tokens = await h.stores.tokens.list(user.id, true);
      expect(tokens).toHaveLength(1);
      expect(JSON.stringify(tokens)).not.toContain(pat);
      // looked up by hash only: the PAT itself is no key
      expect(await h.stores.tokens.findByHash(pat)).toBeUndefined();
    },
  );

  it.skipIf(d.skip)(
    "answers 410 once the code expires, 400 for an unknown code and 404 approving one",
    async () => {
      const h = await setup();
      const cookie = await h.signup("late@example.com");
      const s = await start(h);
      h.clock.advance(s.expires_in * 1000);
      expect((await poll(h, s.device_code)).status).toBe(410);
      expect((await approve(h, cookie, s.user_code)).status).toBe(410);
      const unknown = await poll(h, "not-a-code");
      expect(unknown.status).toBe(400);
      expect(await detail(unknown)).toMatchObject({ code: "invalid_device_code" });
      expect((await poll(h, "")).status).toBe(400);
      expect((await approve(h, cookie, "ZZZZ-ZZZZ")).status).toBe(404);
    },
  );

  it.skipIf(d.skip)(
    "needs a browser session to approve: no auth 401, a PAT 403, a foreign Origin 403",
    async () => {
      const h = await setup();
      const cookie = await h.signup("me@example.com");
      const pat = await loginPat(h, cookie);
      const s = await start(h);
      expect(
        (await h.req("POST", `${DEV}/login/approve`, { body: { user_code: s.user_code } })).status,
      ).toBe(401);
      const viaPat = await h.req("POST", `${DEV}/login/approve`, {
        body: { user_code: s.user_code },
        headers: { authorization: `Bearer ${pat}` },
      });
      expect(viaPat.status).toBe(403);
      expect(
        (await approve(h, cookie, s.user_code, { origin: "https://evil.example" })).status,
      ).toBe(403);
      expect((await poll(h, s.device_code)).status).toBe(202);
    },
  );

  it.skipIf(d.skip)("rate-limits polling one device code with 429 and Retry-After", async () => {
    const h = await setup();
    const s = await start(h);
    for (let i = 0; i < 30; i++) expect((await poll(h, s.device_code)).status).toBe(202);
    const limited = await poll(h, s.device_code);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    h.clock.advance(60_000);
    expect((await poll(h, s.device_code)).status).toBe(202);
  });

  it.skipIf(d.skip)(
    "lists a user's own PATs with last use, revokes with 204, then the PAT gets 401 token_revoked",
    async () => {
      const h = await setup();
      const cookie = await h.signup("tok@example.com");
      const pat = await loginPat(h, cookie);
      const bearer = { authorization: `Bearer ${pat}` };
      h.clock.advance(5_000);
      const list = await h.req("GET", `${DEV}/tokens`, { headers: bearer });
      expect(list.status).toBe(200);
      const { tokens } = (await list.json()) as {
        tokens: {
          id: number;
          jti: string;
          scopes: string[];
          last_used_at: string;
          revoked_at: null;
        }[];
      };
      expect(tokens).toHaveLength(1);
      const t = tokens[0]!;
      expect(typeof t.id).toBe("number");
      expect(t.revoked_at).toBeNull();
      expect(t.last_used_at).not.toBeNull();
      expect(JSON.stringify(tokens)).not.toContain(pat);
      const scopes = await h.req("GET", `${DEV}/tokens/scopes`, { headers: bearer });
      expect(
        ((await scopes.json()) as { scopes: { name: string }[] }).scopes.map((s) => s.name),
      ).toContain("aps:dev");

      expect(
        (await h.req("POST", `${DEV}/tokens/${t.id}/revoke`, { headers: bearer })).status,
      ).toBe(204);
      const after = await h.req("GET", `${DEV}/tokens`, { headers: bearer });
      expect(after.status).toBe(401);
      expect(await detail(after)).toMatchObject({ code: "token_revoked" });
      // the browser session still sees it, with include_revoked
      const all = await h.req("GET", `${DEV}/tokens?include_revoked=true`, { cookie });
      expect(
        ((await all.json()) as { tokens: { revoked_at: string | null }[] }).tokens[0]?.revoked_at,
      ).not.toBeNull();
      expect(
        ((await (await h.req("GET", `${DEV}/tokens`, { cookie })).json()) as { tokens: unknown[] })
          .tokens,
      ).toHaveLength(0);
    },
  );

  it.skipIf(d.skip)("never lets one user see or revoke another user's PAT", async () => {
    const h = await setup();
    const alice = await h.signup("alice@example.com");
    const mallory = await h.signup("mallory@example.com");
    await loginPat(h, alice);
    const malloryPat = await loginPat(h, mallory);
    const aliceTokens = (await (await h.req("GET", `${DEV}/tokens`, { cookie: alice })).json()) as {
      tokens: { id: number }[];
    };
    const aliceTokenId = aliceTokens.tokens[0]!.id;
    const malloryList = (await (
      await h.req("GET", `${DEV}/tokens`, { headers: { authorization: `Bearer ${malloryPat}` } })
    ).json()) as { tokens: { id: number }[] };
    expect(malloryList.tokens.map((t) => t.id)).not.toContain(aliceTokenId);
    const viaPat = await h.req("POST", `${DEV}/tokens/${aliceTokenId}/revoke`, {
      headers: { authorization: `Bearer ${malloryPat}` },
    });
    expect(viaPat.status).toBe(404);
    const viaSession = await h.req("POST", `${DEV}/tokens/${aliceTokenId}/revoke`, {
      cookie: mallory,
      headers: { origin: ORIGIN },
    });
    expect(viaSession.status).toBe(404);
    expect((await h.req("POST", `${DEV}/tokens/abc/revoke`, { cookie: mallory })).status).toBe(400);
    const still = (await (await h.req("GET", `${DEV}/tokens`, { cookie: alice })).json()) as {
      tokens: unknown[];
    };
    expect(still.tokens).toHaveLength(1);
  });

  it.skipIf(d.skip)(
    "rejects an expired PAT with 401 token_expired and an unknown one with 401",
    async () => {
      const h = await setup();
      const cookie = await h.signup("exp@example.com");
      const pat = await loginPat(h, cookie);
      expect(
        (await h.req("GET", "/api/v1/me", { headers: { authorization: "Bearer anna_pat_forged" } }))
          .status,
      ).toBe(401);
      h.clock.advance(90 * 86_400_000);
      const res = await h.req("GET", "/api/v1/me", { headers: { authorization: `Bearer ${pat}` } });
      expect(res.status).toBe(401);
      expect(await detail(res)).toMatchObject({ code: "token_expired" });
    },
  );

  it.skipIf(d.skip)(
    "answers a PAT without the needed scope with the published missing_scope shape",
    async () => {
      const h = await setup();
      await h.signup("narrow@example.com");
      const user = (await h.stores.users.findCredentials("narrow@example.com"))!.user;
      const { mintPat } = await import("../src/routes/tokens.js");
      const { pat } = await mintPat(h.stores, {
        userId: user.id,
        scopes: ["executas:publish"],
        label: null,
        now: h.clock.now(),
        ttlMs: 86_400_000,
      });
      const res = await h.req("GET", `${DEV}/tokens`, {
        headers: { authorization: `Bearer ${pat}` },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        detail: {
          detail: "missing_scope",
          needed: ["aps:dev"],
          missing: ["aps:dev"],
          have: ["executas:publish"],
        },
      });
    },
  );

  it.skipIf(d.skip)(
    "serves the approval page with framing forbidden and the code prefilled",
    async () => {
      const h = await setup();
      const res = await h.req("GET", "/device?user_code=abcd-efgh%22%3E%3Cscript%3E");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      const html = await res.text();
      expect(html).toContain('value="ABCDEFGHSCRIPT"');
      expect(html).not.toContain("<script>");
      expect(html).toContain('name="password"');
      const cookie = await h.signup("page@example.com");
      const signedIn = await (await h.req("GET", "/device", { cookie })).text();
      expect(signedIn).toContain("page@example.com");
      expect(signedIn).not.toContain('name="password"');
    },
  );
});
