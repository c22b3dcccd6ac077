// One contract for the token-minting stores (signing keys, dev sessions): in-memory, SQLite and
// PostgreSQL.
import { describe, expect, it } from "vitest";
import type { Stores } from "../src/stores/types.js";
import type { NewDevSession } from "../src/stores/dev-session-store.js";
import { STORE_IMPLS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const T0 = Date.UTC(2026, 0, 1);
const key = (kid: string) => ({
  kid,
  alg: "EdDSA",
  publicJwk: { kty: "OKP", crv: "Ed25519", x: `x-${kid}` },
  privateSealed: `v1.sealed-${kid}`,
});

async function userWithPat(s: Stores, email: string) {
  const u = await s.users.create({ email, passwordHash: "h" }, T0);
  const t = await s.tokens.create(
    {
      userId: u.id,
      tokenHash: `th-${email}`,
      jti: `j-${email}`,
      label: null,
      scopes: ["aps:dev"],
      expiresAt: T0 + 1e9,
    },
    T0,
  );
  return { userId: u.id, patId: t.id };
}

const session = (
  userId: number,
  devTokenId: number,
  uuid: string,
  over: Partial<NewDevSession> = {},
): NewDevSession => ({
  uuid,
  userId,
  devTokenId,
  kind: "complete",
  submode: null,
  appSlug: "notes",
  toolId: "app:notes",
  label: null,
  claims: { a: 1 },
  expiresAt: T0 + 1000,
  maxLifetimeAt: T0 + 5000,
  ...over,
});

describe.each(STORE_IMPLS)("token stores on $name", (impl) => {
  it.skipIf(impl.skip)(
    "signing keys: rotate supersedes the signer, live keys until retirement, retire forgets the private half",
    async () => {
      const s = await impl.make();
      expect(await s.signingKeys.listLive(T0)).toEqual([]);
      const k1 = await s.signingKeys.rotate(key("k1"), T0, T0 + 100);
      expect(k1).toMatchObject({ kid: "k1", supersededAt: null, retireAt: null, createdAt: T0 });
      expect(k1.publicJwk).toEqual({ kty: "OKP", crv: "Ed25519", x: "x-k1" });
      await s.signingKeys.rotate(key("k2"), T0 + 10, T0 + 110);
      const live = await s.signingKeys.listLive(T0 + 10);
      expect(live.map((k) => [k.kid, k.supersededAt, k.retireAt])).toEqual([
        ["k2", null, null],
        ["k1", T0 + 10, T0 + 110],
      ]);
      // superseding happens once: k1 keeps its first retirement time
      await s.signingKeys.rotate(key("k3"), T0 + 20, T0 + 120);
      expect((await s.signingKeys.listLive(T0 + 20)).map((k) => [k.kid, k.retireAt])).toEqual([
        ["k3", null],
        ["k2", T0 + 120],
        ["k1", T0 + 110],
      ]);
      expect((await s.signingKeys.listLive(T0 + 110)).map((k) => k.kid)).toEqual(["k3", "k2"]);
      expect(await s.signingKeys.retireDue(T0 + 110)).toEqual(["k1"]);
      expect(await s.signingKeys.retireDue(T0 + 110)).toEqual([]);
      const all = await s.signingKeys.listAll();
      expect(all.map((k) => [k.kid, k.privateSealed === null])).toEqual([
        ["k3", false],
        ["k2", false],
        ["k1", true],
      ]);
    },
  );

  it.skipIf(impl.skip)("signing keys: kids are unique", async () => {
    const s = await impl.make();
    await s.signingKeys.rotate(key("same"), T0, T0 + 1);
    if (impl.name === "memory") return; // the memory store trusts its caller (thumbprints)
    await expect(s.signingKeys.rotate(key("same"), T0, T0 + 1)).rejects.toThrow();
  });

  it.skipIf(impl.skip)(
    "dev sessions: owner-only find/revoke, slide within deadlines, filtered lists and revoke-all",
    async () => {
      const s = await impl.make();
      const a = await userWithPat(s, "a@x.io");
      const b = await userWithPat(s, "b@x.io");
      const s1 = await s.devSessions.create(session(a.userId, a.patId, "aps_1"), T0);
      await s.devSessions.create(
        session(a.userId, a.patId, "aps_2", { appSlug: "other", kind: "agent", submode: "auto" }),
        T0 + 1,
      );
      await s.devSessions.create(
        session(a.userId, a.patId, "aps_3", { kind: "storage", toolId: "tool-x" }),
        T0 + 2,
      );
      await s.devSessions.create(session(b.userId, b.patId, "aps_b"), T0);
      expect(s1).toMatchObject({
        uuid: "aps_1",
        claims: { a: 1 },
        createdAt: T0,
        lastMintedAt: T0,
        revokedAt: null,
      });
      expect(await s.devSessions.find(b.userId, "aps_1")).toBeUndefined();
      expect((await s.devSessions.find(a.userId, "aps_1"))?.id).toBe(s1.id);

      const all = { kinds: ["complete", "agent", "storage"] as const, includeExpired: false };
      expect((await s.devSessions.list(a.userId, all, 50, T0)).map((x) => x.uuid)).toEqual([
        "aps_3",
        "aps_2",
        "aps_1",
      ]);
      expect(
        (await s.devSessions.list(a.userId, { ...all, kinds: ["complete", "agent"] }, 50, T0)).map(
          (x) => x.uuid,
        ),
      ).toEqual(["aps_2", "aps_1"]);
      expect(
        (await s.devSessions.list(a.userId, { ...all, appSlug: "notes" }, 1, T0)).map(
          (x) => x.uuid,
        ),
      ).toEqual(["aps_3"]);

      // slide: moves the idle deadline while live; refused once past it
      expect(await s.devSessions.slide(s1.id, T0 + 500, T0 + 1500)).toBe(true);
      expect((await s.devSessions.find(a.userId, "aps_1"))?.expiresAt).toBe(T0 + 1500);
      expect(await s.devSessions.slide(s1.id, T0 + 1500, T0 + 2500)).toBe(false);
      expect((await s.devSessions.list(a.userId, all, 50, T0 + 1500)).map((x) => x.uuid)).toEqual(
        [],
      );
      expect(
        (await s.devSessions.list(a.userId, { ...all, includeExpired: true }, 50, T0 + 1500))
          .length,
      ).toBe(3);

      // verifier view: PAT revocation shows through
      expect((await s.devSessions.findForVerifier("aps_1"))?.patRevoked).toBe(false);
      await s.tokens.revoke(a.userId, a.patId, T0);
      expect((await s.devSessions.findForVerifier("aps_1"))?.patRevoked).toBe(true);
      expect(await s.devSessions.findForVerifier("aps_nope")).toBeUndefined();

      // revoke: owner only, idempotent
      expect(await s.devSessions.revoke(b.userId, "aps_1", T0)).toBe(false);
      expect(await s.devSessions.revoke(a.userId, "aps_1", T0 + 3)).toBe(true);
      expect(await s.devSessions.revoke(a.userId, "aps_1", T0 + 4)).toBe(true);
      expect((await s.devSessions.find(a.userId, "aps_1"))?.revokedAt).toBe(T0 + 3);

      // revoke-all: only expired ones, then by app, never another user's
      const many = { kinds: ["complete", "agent", "storage"] as const, onlyExpired: true };
      expect(await s.devSessions.revokeMany(a.userId, many, T0 + 10)).toBe(0);
      expect(await s.devSessions.revokeMany(a.userId, many, T0 + 1000)).toBe(2);
      await s.devSessions.create(session(a.userId, a.patId, "aps_4"), T0 + 2000);
      await s.devSessions.create(session(a.userId, a.patId, "aps_5", { appSlug: "x" }), T0 + 2000);
      expect(
        await s.devSessions.revokeMany(
          a.userId,
          { ...many, onlyExpired: false, appSlug: "x" },
          T0 + 2000,
        ),
      ).toBe(1);
      expect(
        await s.devSessions.revokeMany(a.userId, { ...many, onlyExpired: false }, T0 + 2000),
      ).toBe(1);
      expect((await s.devSessions.find(b.userId, "aps_b"))?.revokedAt).toBeNull();
    },
  );
});
