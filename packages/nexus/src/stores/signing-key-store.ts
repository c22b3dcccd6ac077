// Where per-invoke token signing keys live (schema-tokens.ts): the interface, its SQL
// implementation (both dialects) and an in-memory one with the same semantics (the contract in
// test/signing-key-store.test.ts runs on all three). Private keys arrive here already sealed
// (tokens/key-encryption.ts); this layer never sees a plaintext private key.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../db/schema.js";
import type { SigningKeysTable } from "../db/schema-tokens.js";

export interface SigningKey {
  id: number;
  kid: string;
  alg: string;
  /** The public JWK (`kty`, `crv`, `x`). */
  publicJwk: Record<string, unknown>;
  /** Null once retired. */
  privateSealed: string | null;
  createdAt: number;
  /** Null for the key that signs now. */
  supersededAt: number | null;
  retireAt: number | null;
}

export interface NewSigningKey {
  kid: string;
  alg: string;
  publicJwk: Record<string, unknown>;
  privateSealed: string;
}

export interface SigningKeyStore {
  /** Keys that still verify at `now` (not retired), newest first; the first unsuperseded one signs. */
  listLive(now: number): Promise<SigningKey[]>;
  /** Every key, retired ones too, newest first (operators). */
  listAll(): Promise<SigningKey[]>;
  /**
   * Adds `key` as the signing key: every key signing until now is superseded at `now` and retires
   * at `retireOldAt` (when the last token it signed has expired).
   */
  rotate(key: NewSigningKey, now: number, retireOldAt: number): Promise<SigningKey>;
  /** Forgets the private half of keys whose retirement time has come; returns their kids. */
  retireDue(now: number): Promise<string[]>;
}

const toKey = (r: Selectable<SigningKeysTable>): SigningKey => ({
  id: r.id,
  kid: r.kid,
  alg: r.alg,
  publicJwk: JSON.parse(r.public_jwk) as Record<string, unknown>,
  privateSealed: r.private_jwk_sealed,
  createdAt: r.created_at,
  supersededAt: r.superseded_at,
  retireAt: r.retire_at,
});

export function sqlSigningKeyStore(db: Kysely<Database>): SigningKeyStore {
  return {
    async listLive(now) {
      const rows = await db
        .selectFrom("signing_keys")
        .selectAll()
        .where("private_jwk_sealed", "is not", null)
        .where((eb) => eb.or([eb("retire_at", "is", null), eb("retire_at", ">", now)]))
        .orderBy("id", "desc")
        .execute();
      return rows.map(toKey);
    },
    async listAll() {
      const rows = await db.selectFrom("signing_keys").selectAll().orderBy("id", "desc").execute();
      return rows.map(toKey);
    },
    async rotate(key, now, retireOldAt) {
      const inTransaction = <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
        db.isTransaction ? fn(db) : db.transaction().execute(fn);
      return inTransaction(async (trx) => {
        await trx
          .updateTable("signing_keys")
          .set({ superseded_at: now, retire_at: retireOldAt })
          .where("superseded_at", "is", null)
          .execute();
        const row = await trx
          .insertInto("signing_keys")
          .values({
            kid: key.kid,
            alg: key.alg,
            public_jwk: JSON.stringify(key.publicJwk),
            private_jwk_sealed: key.privateSealed,
            created_at: now,
            superseded_at: null,
            retire_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toKey(row);
      });
    },
    async retireDue(now) {
      const due = await db
        .selectFrom("signing_keys")
        .select("kid")
        .where("private_jwk_sealed", "is not", null)
        .where("retire_at", "<=", now)
        .execute();
      if (!due.length) return [];
      await db
        .updateTable("signing_keys")
        .set({ private_jwk_sealed: null })
        .where("retire_at", "<=", now)
        .execute();
      return due.map((r) => r.kid);
    },
  };
}

export function memorySigningKeyStore(): SigningKeyStore {
  const keys: SigningKey[] = [];
  let nextId = 1;
  const copy = (k: SigningKey): SigningKey => structuredClone(k);
  const newestFirst = () => [...keys].sort((a, b) => b.id - a.id);
  return {
    async listLive(now) {
      return newestFirst()
        .filter((k) => k.privateSealed !== null && (k.retireAt === null || k.retireAt > now))
        .map(copy);
    },
    async listAll() {
      return newestFirst().map(copy);
    },
    async rotate(key, now, retireOldAt) {
      for (const k of keys) {
        if (k.supersededAt === null) Object.assign(k, { supersededAt: now, retireAt: retireOldAt });
      }
      const row: SigningKey = {
        id: nextId++,
        ...structuredClone(key),
        createdAt: now,
        supersededAt: null,
        retireAt: null,
      };
      keys.push(row);
      return copy(row);
    },
    async retireDue(now) {
      const due = keys.filter(
        (k) => k.privateSealed !== null && k.retireAt !== null && k.retireAt <= now,
      );
      for (const k of due) k.privateSealed = null;
      return due.map((k) => k.kid);
    },
  };
}
