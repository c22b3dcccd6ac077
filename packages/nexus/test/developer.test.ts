import { describe, expect, it } from "vitest";
import { TEST_SCRYPT, hashPassword } from "../src/auth/password.js";
import { mintPat } from "../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, type Harness, harness, ORIGIN, sessionCookie } from "./helpers/harness.js";

useDialectCleanup();

const same = { origin: ORIGIN };

/** A verified account (as `admin create-user` makes them) signed in through the API. */
async function verifiedUser(h: Harness, email: string): Promise<{ cookie: string; id: number }> {
  const u = await h.stores.users.create(
    {
      email,
      passwordHash: await hashPassword("correct horse battery", TEST_SCRYPT),
      isVerified: true,
    },
    h.clock.now(),
  );
  const res = await h.req("POST", "/api/v1/auth/signin", {
    body: { email, password: "correct horse battery" },
  });
  return { cookie: sessionCookie(res), id: u.id };
}

describe.each(DIALECTS)("developer profile on $name", (d) => {
  const setup = async () => harness(await d.open());

  it.skipIf(d.skip)(
    "sets a handle (200), refuses bad grammar and reserved words (400), a taken one (409) and no auth (401)",
    async () => {
      const h = await setup();
      const a = await h.signup("a@example.com");
      const b = await h.signup("b@example.com");
      const put = (cookie: string | undefined, handle: string) =>
        h.req("PUT", "/api/v1/developer/profile/handle", {
          cookie,
          body: { handle },
          headers: same,
        });
      const ok = await put(a, "Ada-Lovelace");
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ handle: "ada-lovelace" });
      for (const bad of ["a", "x".repeat(40), "-ada", "ada--l", "ada_l"])
        expect((await put(a, bad)).status).toBe(400);
      expect((await put(a, "admin")).status).toBe(400);
      const taken = await put(b, "ada-lovelace");
      expect(taken.status).toBe(409);
      expect(await detail(taken)).toMatchObject({ code: "handle_taken" });
      expect((await put(undefined, "free-one")).status).toBe(401);
      expect(
        (
          await h.req("PUT", "/api/v1/developer/profile/handle", {
            cookie: b,
            body: { handle: "evil" },
            headers: { origin: "https://evil.example" },
          })
        ).status,
      ).toBe(403);
    },
  );

  it.skipIf(d.skip)(
    "serves the Developer Terms the activation card shows, with the version activation checks",
    async () => {
      const h = harness(await d.open(), {
        developerTosVersion: "2026-12",
        developerTerms: "# Our terms\n\nBe kind.\n",
        selfServeDeveloper: false,
      });
      const res = await h.req("GET", "/api/v1/developer/terms");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        version: "2026-12",
        self_serve: false,
        markdown: "# Our terms\n\nBe kind.\n",
      });
      const standard = await (await setup()).req("GET", "/api/v1/developer/terms");
      expect(await standard.json()).toMatchObject({
        version: "2026-01",
        self_serve: true,
        markdown: expect.stringContaining("## 1. Developer access"),
      });
    },
  );

  it.skipIf(d.skip)(
    "activates Verified Developer from a browser session with the current ToS, in the spec's check order",
    async () => {
      const h = await setup();
      const activate = (cookie: string, body: unknown, headers: Record<string, string> = same) =>
        h.req("POST", "/api/v1/developer/profile/activate", { cookie, body, headers });
      const unverified = await h.signup("new@example.com");
      expect(
        await detail(await activate(unverified, { tos_version: "2026-01", accept_tos: true })),
      ).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });

      const v = await verifiedUser(h, "dev@example.com");
      const { pat } = await mintPat(h.stores, {
        userId: v.id,
        scopes: ["aps:dev"],
        label: null,
        now: h.clock.now(),
        ttlMs: 86_400_000,
      });
      const viaPat = await h.req("POST", "/api/v1/developer/profile/activate", {
        body: { tos_version: "2026-01", accept_tos: true },
        headers: { authorization: `Bearer ${pat}` },
      });
      expect(viaPat.status).toBe(403);
      expect(await detail(viaPat)).toMatchObject({ code: "PAT_NOT_ALLOWED" });
      const noTos = await activate(v.cookie, {});
      expect(noTos.status).toBe(400);
      expect(await detail(noTos)).toMatchObject({ code: "TOS_NOT_ACCEPTED" });
      const old = await activate(v.cookie, { tos_version: "2025-01", accept_tos: true });
      expect(old.status).toBe(409);
      expect(await detail(old)).toMatchObject({
        code: "TOS_VERSION_MISMATCH",
        current_tos_version: "2026-01",
      });
      const ok = await activate(v.cookie, {
        tos_version: "2026-01",
        accept_tos: true,
        handle: "dev",
      });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({
        developer_state: "verified",
        is_verified_developer: true,
        developer_tos_version: "2026-01",
        developer_handle: "dev",
      });

      // S3: an admin revoke blocks self re-activation; an admin restore brings it back.
      await h.stores.users.revokeDeveloper(v.id, h.clock.now());
      const again = await activate(v.cookie, { tos_version: "2026-01", accept_tos: true });
      expect(again.status).toBe(403);
      expect(await detail(again)).toMatchObject({ code: "DEVELOPER_REVOKED" });
      await h.stores.users.grantDeveloper(v.id, null, h.clock.now());
      expect(
        (await (await h.req("GET", "/api/v1/me", { cookie: v.cookie })).json()) as object,
      ).toMatchObject({ developer_state: "verified" });
    },
  );

  it.skipIf(d.skip)("answers 404 when self-serve activation is disabled", async () => {
    const h = harness(await d.open(), { selfServeDeveloper: false });
    const v = await verifiedUser(h, "x@example.com");
    expect(
      (
        await h.req("POST", "/api/v1/developer/profile/activate", {
          cookie: v.cookie,
          body: {},
          headers: same,
        })
      ).status,
    ).toBe(404);
  });
});
