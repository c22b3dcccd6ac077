import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, harness, sessionCookie } from "./helpers/harness.js";

useDialectCleanup();

describe.each(DIALECTS)("accounts on $name", (d) => {
  const setup = async () => harness(await d.open());

  it.skipIf(d.skip)(
    "signs up, reads /me with the cookie, signs out and the cookie stops working",
    async () => {
      const h = await setup();
      const res = await h.req("POST", "/api/v1/auth/signup", {
        body: { email: "Ada@Example.com", password: "correct horse battery" },
      });
      expect(res.status).toBe(201);
      const setCookie = res.headers.get("set-cookie") ?? "";
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).not.toMatch(/Secure/i);
      const cookie = sessionCookie(res);
      const me = await h.req("GET", "/api/v1/me", { cookie });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({
        email: "ada@example.com",
        is_admin: false,
        developer_state: "not_developer",
        auth: "session",
      });
      expect((await h.req("POST", "/api/v1/auth/signout", { cookie })).status).toBe(204);
      expect((await h.req("GET", "/api/v1/me", { cookie })).status).toBe(401);
    },
  );

  it.skipIf(d.skip)(
    "signs in with the right password only, stores only hashes and logs no secret",
    async () => {
      const h = await setup();
      await h.signup("bob@example.com", "bob-password-1");
      const bad = await h.req("POST", "/api/v1/auth/signin", {
        body: { email: "bob@example.com", password: "wrong-password" },
      });
      expect(bad.status).toBe(401);
      expect(await detail(bad)).toMatchObject({ code: "invalid_credentials" });
      const unknown = await h.req("POST", "/api/v1/auth/signin", {
        body: { email: "nobody@example.com", password: "whatever-1" },
      });
      expect(unknown.status).toBe(401);
      const ok = await h.req("POST", "/api/v1/auth/signin", {
        body: { email: "BOB@example.com", password: "bob-password-1" },
      });
      expect(ok.status).toBe(200);
      const cookieValue = sessionCookie(ok).split("=")[1] as string;
      const creds = await h.stores.users.findCredentials("bob@example.com");
      expect(creds?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
      const all = h.logs.join("\n");
      expect(all).not.toContain("bob-password-1");
      expect(all).not.toContain(cookieValue);
    },
  );

  it.skipIf(d.skip)("answers 400 for bad input and 409 for a taken email", async () => {
    const h = await setup();
    const short = await h.req("POST", "/api/v1/auth/signup", {
      body: { email: "c@example.com", password: "short" },
    });
    expect(short.status).toBe(400);
    expect(await detail(short)).toMatchObject({ code: "validation_failed" });
    const notJson = await h.req("POST", "/api/v1/auth/signup", { body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(await detail(notJson)).toMatchObject({ code: "invalid_json" });
    await h.signup("c@example.com");
    const dup = await h.req("POST", "/api/v1/auth/signup", {
      body: { email: "C@example.com", password: "another password" },
    });
    expect(dup.status).toBe(409);
    expect(await detail(dup)).toMatchObject({ code: "email_taken" });
  });

  it.skipIf(d.skip)(
    "rate-limits failed sign-ins with 429 and Retry-After, and lifts it when the window passes",
    async () => {
      const h = await setup();
      await h.signup("eve@example.com", "eve-password-1");
      const attempt = (password: string) =>
        h.req("POST", "/api/v1/auth/signin", { body: { email: "eve@example.com", password } });
      for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}-xxxx`)).status).toBe(401);
      const limited = await attempt("eve-password-1");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await detail(limited)).toMatchObject({ code: "rate_limited" });
      h.clock.advance(15 * 60_000);
      expect((await attempt("eve-password-1")).status).toBe(200);
    },
  );

  it.skipIf(d.skip)(
    "refuses cookie writes from a foreign Origin or cross-site fetch, allows its own origin",
    async () => {
      const h = await setup();
      const cookie = await h.signup("f@example.com");
      const foreign = await h.req("POST", "/api/v1/auth/signout", {
        cookie,
        headers: { origin: "https://evil.example" },
      });
      expect(foreign.status).toBe(403);
      expect(await detail(foreign)).toMatchObject({ code: "csrf_rejected" });
      const crossSite = await h.req("POST", "/api/v1/auth/signout", {
        cookie,
        headers: { "sec-fetch-site": "cross-site" },
      });
      expect(crossSite.status).toBe(403);
      // login CSRF: a foreign page cannot sign a victim in to the attacker's account
      const loginCsrf = await h.req("POST", "/api/v1/auth/signin", {
        body: { email: "f@example.com", password: "correct horse battery" },
        headers: { origin: "https://evil.example" },
      });
      expect(loginCsrf.status).toBe(403);
      expect((await h.req("GET", "/api/v1/me", { cookie })).status).toBe(200);
      const own = await h.req("POST", "/api/v1/auth/signout", {
        cookie,
        headers: { origin: "http://127.0.0.1:8080", "sec-fetch-site": "same-origin" },
      });
      expect(own.status).toBe(204);
    },
  );

  it.skipIf(d.skip)("refuses a Host that is neither loopback nor the public origin", async () => {
    const h = await setup();
    const res = await h.req("GET", "/api/v1/me", { headers: { host: "rebind.evil.example" } });
    expect(res.status).toBe(421);
    expect(await detail(res)).toMatchObject({ code: "misdirected_host" });
    expect((await h.req("GET", "/healthz", { headers: { host: "10.0.0.5:8080" } })).status).toBe(
      200,
    );
  });

  it.skipIf(d.skip)(
    "sets Secure cookies and checks origin against the public origin behind a trusted TLS proxy",
    async () => {
      const h = harness(await d.open(), {
        publicOrigin: "https://nexus.example.com",
        trustProxy: true,
      });
      const headers = {
        host: "nexus.example.com",
        "x-forwarded-proto": "https",
        origin: "https://nexus.example.com",
      };
      const res = await h.req("POST", "/api/v1/auth/signup", {
        body: { email: "g@example.com", password: "correct horse battery" },
        headers,
      });
      expect(res.status).toBe(201);
      expect(res.headers.get("set-cookie")).toMatch(/Secure/);
      const wrong = await h.req("POST", "/api/v1/auth/signin", {
        body: { email: "g@example.com", password: "correct horse battery" },
        headers: { ...headers, origin: "http://nexus.example.com" },
      });
      expect(wrong.status).toBe(403);
    },
  );

  it.skipIf(d.skip)("answers 413 for an oversized body and 401 without credentials", async () => {
    const h = harness(await d.open(), { maxBodyBytes: 1024 });
    const big = await h.req("POST", "/api/v1/auth/signup", {
      body: { email: "h@example.com", password: "x".repeat(2000) },
    });
    expect(big.status).toBe(413);
    expect(await detail(big)).toMatchObject({ code: "payload_too_large" });
    // A declared length is refused from the header, before a byte of the body is read.
    const declared = await h.req("POST", "/api/v1/auth/signup", {
      headers: { "content-length": "1025" },
      body: { email: "h@example.com", password: "x" },
    });
    expect(declared.status).toBe(413);
    // Within the cap, the body is read as usual (a wrong password, not a 413).
    const small = JSON.stringify({ email: "h@example.com", password: "nope-nope" });
    const signin = await h.req("POST", "/api/v1/auth/signin", {
      headers: { "content-length": String(Buffer.byteLength(small)) },
      body: small,
    });
    expect(signin.status).toBe(401);
    expect((await h.req("GET", "/api/v1/me")).status).toBe(401);
    expect((await h.req("GET", "/nope")).status).toBe(404);
  });
});

describe.each(DIALECTS)("sessions on $name", (d) => {
  it.skipIf(d.skip)(
    "expire after 30 days, and a PAT-authenticated call gets no cookie",
    async () => {
      const h = harness(await d.open());
      const cookie = await h.signup("old@example.com");
      h.clock.advance(30 * 86_400_000 - 1);
      expect((await h.req("GET", "/api/v1/me", { cookie })).status).toBe(200);
      h.clock.advance(1);
      expect((await h.req("GET", "/api/v1/me", { cookie })).status).toBe(401);
      const user = (await h.stores.users.findCredentials("old@example.com"))!.user;
      const { mintPat } = await import("../src/routes/tokens.js");
      const { pat } = await mintPat(h.stores, {
        userId: user.id,
        scopes: ["aps:dev"],
        label: null,
        now: h.clock.now(),
        ttlMs: 60_000,
      });
      const viaPat = await h.req("GET", "/api/v1/me", {
        headers: { authorization: `Bearer ${pat}` },
      });
      expect(viaPat.status).toBe(200);
      expect(viaPat.headers.get("set-cookie")).toBeNull();
      expect(
        (await h.req("GET", "/api/v1/me", { headers: { authorization: "Basic abc" } })).status,
      ).toBe(401);
    },
  );
});

describe("readiness", () => {
  it("reports 503 when the database is unreachable", async () => {
    const d = DIALECTS[0]!;
    const db = await d.open();
    const h = harness(db);
    expect((await h.req("GET", "/readyz")).status).toBe(200);
    await db.close();
    const res = await h.req("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { database: "unreachable" } });
  });
});
