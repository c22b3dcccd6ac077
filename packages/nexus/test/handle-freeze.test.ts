// A handle its owner renamed away from stays frozen for 90 days: nobody else may take it (apps
// publish as `@handle/slug`), its former owner may take it back. Store contract on memory, SQLite
// and PostgreSQL, then the route's answer on both dialects.
import { describe, expect, it } from "vitest";
import { HANDLE_FREEZE_MS } from "../src/auth/handle-rules.js";
import { DIALECTS, STORE_IMPLS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, harness, ORIGIN, sessionCookie } from "./helpers/harness.js";

useDialectCleanup();

const T0 = Date.UTC(2026, 0, 1);

describe.each(STORE_IMPLS)("handle freeze on $name", (impl) => {
  it.skipIf(impl.skip)(
    "freezes a released handle for others for 90 days, lets its owner take it back",
    async () => {
      const s = await impl.make();
      const a = await s.users.create({ email: "a@x.io", passwordHash: "h", handle: "ada" }, T0);
      const b = await s.users.create({ email: "b@x.io", passwordHash: "h" }, T0);
      await s.users.setHandle(a.id, "ada", T0); // unchanged: nothing is released
      await s.users.setHandle(b.id, "bee", T0);
      await s.users.setHandle(a.id, "ada-two", T0 + 1);
      await expect(s.users.setHandle(b.id, "ada", T0 + 2)).rejects.toMatchObject({
        code: "handle_taken",
        details: { reason: "HANDLE_FROZEN" },
      });
      await expect(
        s.users.create({ email: "c@x.io", passwordHash: "h", handle: "ada" }, T0 + 2),
      ).rejects.toMatchObject({ details: { reason: "HANDLE_FROZEN" } });
      expect((await s.users.findById(b.id))?.handle).toBe("bee");

      // The owner takes it back: its freeze ends, and "ada-two" is frozen instead.
      await s.users.setHandle(a.id, "ada", T0 + 3);
      expect((await s.users.findById(a.id))?.handle).toBe("ada");
      await expect(s.users.setHandle(b.id, "ada-two", T0 + 4)).rejects.toMatchObject({
        details: { reason: "HANDLE_FROZEN" },
      });
      await s.users.setHandle(a.id, "ada-three", T0 + 5);
      await expect(
        s.users.setHandle(b.id, "ada", T0 + 5 + HANDLE_FREEZE_MS - 1),
      ).rejects.toMatchObject({
        details: { reason: "HANDLE_FROZEN" },
      });
      await s.users.setHandle(b.id, "ada", T0 + 5 + HANDLE_FREEZE_MS);
      expect((await s.users.findById(b.id))?.handle).toBe("ada");
      // b's old "bee" is frozen now, for a.
      await expect(s.users.setHandle(a.id, "bee", T0 + 6 + HANDLE_FREEZE_MS)).rejects.toMatchObject(
        { details: { reason: "HANDLE_FROZEN" } },
      );
    },
  );
});

describe.each(DIALECTS)("PUT /developer/profile/handle freeze on $name", (d) => {
  it.skipIf(d.skip)("answers 409 HANDLE_FROZEN with the date the freeze ends", async () => {
    const h = harness(await d.open());
    const a = await h.signup("a@example.com");
    const b = await h.signup("b@example.com");
    const put = (cookie: string, handle: string) =>
      h.req("PUT", "/api/v1/developer/profile/handle", {
        cookie,
        body: { handle },
        headers: { origin: ORIGIN },
      });
    expect((await put(a, "studio")).status).toBe(200);
    expect((await put(a, "studio-acme")).status).toBe(200);
    const frozen = await put(b, "Studio");
    expect(frozen.status).toBe(409);
    expect(await detail(frozen)).toMatchObject({
      code: "handle_taken",
      reason: "HANDLE_FROZEN",
      frozen_until: new Date(h.clock.now() + HANDLE_FREEZE_MS).toISOString(),
    });
    h.clock.advance(HANDLE_FREEZE_MS);
    // Sessions last 30 days: sign in again after the 90.
    const b2 = await h.req("POST", "/api/v1/auth/signin", {
      body: { email: "b@example.com", password: "correct horse battery" },
    });
    expect((await put(sessionCookie(b2), "studio")).status).toBe(200);
  });
});
