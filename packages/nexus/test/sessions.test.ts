// A person's browser sessions on SQLite and PostgreSQL: listed newest first with "this one"
// marked, one revoked by id (that browser is signed out at once), every other one revoked, a PAT
// refused, another person's session not found.
import { describe, expect, it } from "vitest";
import { mintPat } from "../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, harness, ORIGIN, sessionCookie } from "./helpers/harness.js";

useDialectCleanup();

const same = { origin: ORIGIN };
const PASSWORD = "correct horse battery";

describe.each(DIALECTS)("sessions on $name", (d) => {
  it.skipIf(d.skip)("lists, revokes one, revokes the others", async () => {
    const h = harness(await d.open());
    const first = await h.signup("ada@example.com");
    h.clock.advance(1000);
    const signin = async () =>
      sessionCookie(
        await h.req("POST", "/api/v1/auth/signin", {
          body: { email: "ada@example.com", password: PASSWORD },
        }),
      );
    const second = await signin();
    h.clock.advance(1000);
    const third = await signin();
    const me = async (cookie: string) => (await h.req("GET", "/api/v1/me", { cookie })).status;

    const listed = await h.req("GET", "/api/v1/auth/sessions", { cookie: third });
    expect(listed.status).toBe(200);
    const { sessions } = (await listed.json()) as {
      sessions: { id: number; current: boolean; created_at: string; expires_at: string }[];
    };
    expect(sessions).toHaveLength(3);
    expect(sessions.map((s) => s.current)).toEqual([true, false, false]);
    expect(JSON.stringify(sessions)).not.toMatch(/hash|token/);
    expect(Date.parse(sessions[0]!.expires_at)).toBeGreaterThan(
      Date.parse(sessions[0]!.created_at),
    );

    const oldest = sessions[2]!.id;
    const revoke = await h.req("DELETE", `/api/v1/auth/sessions/${oldest}`, {
      cookie: third,
      headers: same,
    });
    expect(revoke.status).toBe(204);
    expect(await me(first)).toBe(401);
    expect(await me(second)).toBe(200);
    const again = await h.req("DELETE", `/api/v1/auth/sessions/${oldest}`, {
      cookie: third,
      headers: same,
    });
    expect(again.status).toBe(404);
    expect((await detail(again)).message).toMatch(/GET \/api\/v1\/auth\/sessions/);

    // Another person cannot see or end Ada's sessions.
    const bob = await h.signup("bob@example.com");
    const bobs = (await (await h.req("GET", "/api/v1/auth/sessions", { cookie: bob })).json()) as {
      sessions: unknown[];
    };
    expect(bobs.sessions).toHaveLength(1);
    const steal = await h.req("DELETE", `/api/v1/auth/sessions/${sessions[1]!.id}`, {
      cookie: bob,
      headers: same,
    });
    expect(steal.status).toBe(404);
    expect(await me(second)).toBe(200);

    const others = await h.req("POST", "/api/v1/auth/sessions/revoke-others", {
      cookie: third,
      headers: same,
    });
    expect(await others.json()).toEqual({ revoked: 1 });
    expect(await me(second)).toBe(401);
    expect(await me(third)).toBe(200);

    // A token cannot list or end sessions, and a cross-site form cannot either.
    const user = (await h.stores.users.findCredentials("ada@example.com"))?.user;
    const { pat } = await mintPat(h.stores, {
      userId: user!.id,
      scopes: ["aps:dev"],
      label: null,
      now: h.clock.now(),
      ttlMs: 86_400_000,
    });
    const viaPat = await h.req("GET", "/api/v1/auth/sessions", {
      headers: { authorization: `Bearer ${pat}` },
    });
    expect(viaPat.status).toBe(403);
    expect(await detail(viaPat)).toMatchObject({ code: "PAT_NOT_ALLOWED" });
    const crossSite = await h.req("POST", "/api/v1/auth/sessions/revoke-others", {
      cookie: third,
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(await me(third)).toBe(200);
  });
});
