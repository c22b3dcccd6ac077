// One contract for every Stores implementation: in-memory, SQLite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { NexusError } from "../src/core/errors.js";
import { STORE_IMPLS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const T0 = Date.UTC(2026, 0, 1);

describe.each(STORE_IMPLS)("store contract on $name", (impl) => {
  it.skipIf(impl.skip)(
    "users: unique lower-cased email and handle, developer state machine",
    async () => {
      const s = await impl.make();
      const a = await s.users.create({ email: "A@x.io", passwordHash: "h1", handle: "ay" }, T0);
      expect(a).toMatchObject({
        email: "a@x.io",
        developerState: "not_developer",
        handle: "ay",
        isAdmin: false,
      });
      await expect(
        s.users.create({ email: "a@X.io", passwordHash: "h" }, T0),
      ).rejects.toMatchObject({ code: "email_taken" });
      await expect(
        s.users.create({ email: "b@x.io", passwordHash: "h", handle: "ay" }, T0),
      ).rejects.toBeInstanceOf(NexusError);
      const b = await s.users.create({ email: "b@x.io", passwordHash: "h" }, T0);
      await expect(s.users.setHandle(b.id, "ay", T0)).rejects.toMatchObject({
        code: "handle_taken",
      });
      await s.users.setHandle(a.id, "ay", T0); // own handle again is fine
      await s.users.grantDeveloper(a.id, "tos-1", T0 + 1);
      expect(await s.users.findById(a.id)).toMatchObject({
        developerState: "verified",
        developerActivatedAt: T0 + 1,
        developerTosVersion: "tos-1",
      });
      await s.users.revokeDeveloper(a.id, T0 + 2);
      expect((await s.users.findById(a.id))?.developerState).toBe("revoked");
      await s.users.grantDeveloper(a.id, null, T0 + 3);
      expect(await s.users.findById(a.id)).toMatchObject({
        developerState: "verified",
        developerActivatedAt: T0 + 1,
        developerTosVersion: "tos-1",
      });
      await s.users.setPassword(a.id, "h2", T0);
      expect((await s.users.findCredentials("A@X.IO"))?.passwordHash).toBe("h2");
      expect((await s.users.list()).map((u) => u.email)).toEqual(["a@x.io", "b@x.io"]);
      expect(await s.users.findById(999)).toBeUndefined();
    },
  );

  it.skipIf(impl.skip)("sessions: found until expiry or revocation", async () => {
    const s = await impl.make();
    const u = await s.users.create({ email: "s@x.io", passwordHash: "h" }, T0);
    await s.sessions.create(u.id, "hash-1", T0, T0 + 1000);
    await s.sessions.create(u.id, "hash-2", T0, T0 + 1000);
    expect((await s.sessions.findUser("hash-1", T0 + 999))?.id).toBe(u.id);
    expect(await s.sessions.findUser("hash-1", T0 + 1000)).toBeUndefined();
    await s.sessions.revoke("hash-1", T0);
    expect(await s.sessions.findUser("hash-1", T0)).toBeUndefined();
    await s.sessions.revokeAllForUser(u.id, T0);
    expect(await s.sessions.findUser("hash-2", T0)).toBeUndefined();
  });

  it.skipIf(impl.skip)(
    "tokens: newest first, only the owner revokes, revoked hidden unless asked",
    async () => {
      const s = await impl.make();
      const a = await s.users.create({ email: "a@x.io", passwordHash: "h" }, T0);
      const b = await s.users.create({ email: "b@x.io", passwordHash: "h" }, T0);
      const t1 = await s.tokens.create(
        {
          userId: a.id,
          tokenHash: "th1",
          jti: "j1",
          label: null,
          scopes: ["aps:dev"],
          expiresAt: T0 + 10,
        },
        T0,
      );
      const t2 = await s.tokens.create(
        { userId: a.id, tokenHash: "th2", jti: "j2", label: "ci", scopes: [], expiresAt: T0 + 10 },
        T0 + 1,
      );
      expect((await s.tokens.list(a.id, false)).map((t) => t.id)).toEqual([t2.id, t1.id]);
      expect(await s.tokens.findByHash("th1")).toMatchObject({
        id: t1.id,
        scopes: ["aps:dev"],
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await s.tokens.revoke(b.id, t1.id, T0)).toBe(false);
      expect(await s.tokens.revoke(a.id, t1.id, T0 + 5)).toBe(true);
      expect(await s.tokens.revoke(a.id, t1.id, T0 + 6)).toBe(true);
      expect((await s.tokens.findByHash("th1"))?.revokedAt).toBe(T0 + 5);
      expect((await s.tokens.list(a.id, false)).map((t) => t.id)).toEqual([t2.id]);
      expect(await s.tokens.list(a.id, true)).toHaveLength(2);
      await s.tokens.touch(t2.id, T0 + 7);
      expect((await s.tokens.findByHash("th2"))?.lastUsedAt).toBe(T0 + 7);
      // The one look-up authentication makes: the token as findByHash sees it, and its user.
      const both = await s.tokens.findWithUser("th1");
      expect(both?.token).toEqual(await s.tokens.findByHash("th1"));
      expect(both?.user).toEqual(await s.users.findById(a.id));
      expect(await s.tokens.findWithUser("th-unknown")).toBeUndefined();
    },
  );

  it.skipIf(impl.skip)(
    "device codes: approve only while pending and unexpired, consume exactly once",
    async () => {
      const s = await impl.make();
      const u = await s.users.create({ email: "d@x.io", passwordHash: "h" }, T0);
      const d = await s.devices.create(
        { deviceCodeHash: "dh", userCode: "ABCD-EFGH", scopes: ["aps:dev"], expiresAt: T0 + 100 },
        T0,
      );
      expect(await s.devices.consume(d.id)).toBe(false);
      expect(await s.devices.approve(d.id, u.id, T0 + 100)).toBe(false);
      expect(await s.devices.approve(d.id, u.id, T0 + 99)).toBe(true);
      expect(await s.devices.approve(d.id, u.id, T0 + 99)).toBe(false);
      expect(await s.devices.findByUserCode("ABCD-EFGH")).toMatchObject({
        status: "approved",
        userId: u.id,
        scopes: ["aps:dev"],
      });
      expect(await s.devices.consume(d.id)).toBe(true);
      expect(await s.devices.consume(d.id)).toBe(false);
      expect((await s.devices.findByHash("dh"))?.status).toBe("consumed");
    },
  );

  // The memory stores run a transaction directly and cannot roll back (memory-stores.ts).
  it.skipIf(impl.skip || impl.name === "memory")(
    "transaction: a throw inside rolls the writes back",
    async () => {
      const s = await impl.make();
      await expect(
        s.transaction(async (tx) => {
          await tx.users.create({ email: "t@x.io", passwordHash: "h" }, T0);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await s.users.findCredentials("t@x.io")).toBeUndefined();
    },
  );
});
