// The accounts `npm start` creates, on every store implementation (memory, SQLite, PostgreSQL):
// the first admin once, with a password only the caller sees; the examples publisher, whose PAT
// works until revoked and whose password nobody knows.
import { describe, expect, it } from "vitest";
import { TEST_SCRYPT, verifyPassword } from "../../src/auth/password.js";
import { hashSecret } from "../../src/auth/secrets.js";
import {
  ensureFirstAdmin,
  EXAMPLES_PUBLISHER_EMAIL,
  examplesPublisherToken,
  FIRST_ADMIN_EMAIL,
  PUBLISHER_TOKEN_TTL_MS,
} from "../../src/cli/platform-accounts.js";
import { STORE_IMPLS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();
const T0 = Date.UTC(2026, 0, 1);

describe.each(STORE_IMPLS)("platform accounts on $name", (impl) => {
  it.skipIf(impl.skip)("creates the first admin only while nobody has an account", async () => {
    const s = await impl.make();
    // The publisher alone does not count: it is created before anyone signs up.
    await examplesPublisherToken(s, T0, TEST_SCRYPT);
    const admin = await ensureFirstAdmin(s, T0, TEST_SCRYPT);
    expect(admin?.email).toBe(FIRST_ADMIN_EMAIL);
    expect(admin!.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored = await s.users.findCredentials(FIRST_ADMIN_EMAIL);
    expect(stored?.user).toMatchObject({ isAdmin: true, isVerified: true });
    expect(stored!.passwordHash).not.toContain(admin!.password);
    expect(await verifyPassword(admin!.password, stored!.passwordHash)).toBe(true);
    expect(await ensureFirstAdmin(s, T0 + 1, TEST_SCRYPT)).toBeUndefined();
    expect((await s.users.list()).filter((u) => u.isAdmin)).toHaveLength(2);
  });

  it.skipIf(impl.skip)("does not create an admin when someone signed up first", async () => {
    const s = await impl.make();
    await s.users.create({ email: "ada@example.com", passwordHash: "h" }, T0);
    expect(await ensureFirstAdmin(s, T0, TEST_SCRYPT)).toBeUndefined();
  });

  it.skipIf(impl.skip)(
    "mints the publisher a short PAT each time and revokes it, keeping one account",
    async () => {
      const s = await impl.make();
      const first = await examplesPublisherToken(s, T0, TEST_SCRYPT);
      expect(first.user).toMatchObject({
        email: EXAMPLES_PUBLISHER_EMAIL,
        handle: "examples",
        isAdmin: true,
        developerState: "verified",
      });
      const found = await s.tokens.findWithUser(hashSecret(first.pat));
      expect(found?.user.id).toBe(first.user.id);
      expect(found?.token).toMatchObject({
        scopes: ["aps:dev", "executas:publish"],
        expiresAt: T0 + PUBLISHER_TOKEN_TTL_MS,
        revokedAt: null,
      });
      await first.revoke(T0 + 5);
      expect((await s.tokens.findByHash(hashSecret(first.pat)))?.revokedAt).toBe(T0 + 5);
      const second = await examplesPublisherToken(s, T0 + 10, TEST_SCRYPT);
      expect(second.user.id).toBe(first.user.id);
      expect(second.pat).not.toBe(first.pat);
    },
  );
});
