// Email verification links (migration 0005): the interface, its SQL implementation (both
// dialects) and an in-memory one with the same semantics; test/email-verification.test.ts runs
// the contract on all three. Only the token's hash is stored.
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

export interface NewEmailVerification {
  userId: number;
  tokenHash: string;
  email: string;
  expiresAt: number;
}

export type ConsumeResult =
  | { ok: true; userId: number; email: string }
  | { ok: false; reason: "unknown" | "used" | "expired" };

export interface EmailVerificationStore {
  create(v: NewEmailVerification, now: number): Promise<void>;
  /**
   * Marks the link used exactly once (a second use, even concurrent, gets `used`) and, in the
   * same step, the user verified when the link's address is still the user's.
   */
  consume(tokenHash: string, now: number): Promise<ConsumeResult>;
  /** Links sent to `userId` since `since` (the resend limit counts them). */
  countSince(userId: number, since: number): Promise<number>;
}

export function sqlEmailVerificationStore(db: Kysely<Database>): EmailVerificationStore {
  const run = <T>(fn: (tx: Kysely<Database>) => Promise<T>) =>
    db.isTransaction ? fn(db) : db.transaction().execute(fn);
  return {
    async create(v, now) {
      await db
        .insertInto("email_verifications")
        .values({
          user_id: v.userId,
          token_hash: v.tokenHash,
          email: v.email.toLowerCase(),
          created_at: now,
          expires_at: v.expiresAt,
          used_at: null,
        })
        .execute();
    },
    consume: (tokenHash, now) =>
      run(async (tx) => {
        const row = await tx
          .selectFrom("email_verifications")
          .selectAll()
          .where("token_hash", "=", tokenHash)
          .executeTakeFirst();
        if (!row) return { ok: false, reason: "unknown" } as const;
        if (row.used_at !== null) return { ok: false, reason: "used" } as const;
        if (row.expires_at <= now) return { ok: false, reason: "expired" } as const;
        // The guarded update is what makes "exactly once" hold under concurrency.
        const res = await tx
          .updateTable("email_verifications")
          .set({ used_at: now })
          .where("id", "=", row.id)
          .where("used_at", "is", null)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return { ok: false, reason: "used" } as const;
        const marked = await tx
          .updateTable("users")
          .set({ is_verified: 1, updated_at: now })
          .where("id", "=", row.user_id)
          .where("email", "=", row.email)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) return { ok: false, reason: "unknown" } as const;
        return { ok: true, userId: row.user_id, email: row.email } as const;
      }),
    async countSince(userId, since) {
      const r = await db
        .selectFrom("email_verifications")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .where("created_at", ">=", since)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

/** `markVerified(userId, email)` flips the user's flag when the address is still theirs. */
export function memoryEmailVerificationStore(
  markVerified: (userId: number, email: string) => boolean,
): EmailVerificationStore {
  const rows = new Map<
    string,
    { userId: number; email: string; createdAt: number; expiresAt: number; usedAt: number | null }
  >();
  return {
    async create(v, now) {
      rows.set(v.tokenHash, {
        userId: v.userId,
        email: v.email.toLowerCase(),
        createdAt: now,
        expiresAt: v.expiresAt,
        usedAt: null,
      });
    },
    async consume(tokenHash, now) {
      const r = rows.get(tokenHash);
      if (!r) return { ok: false, reason: "unknown" };
      if (r.usedAt !== null) return { ok: false, reason: "used" };
      if (r.expiresAt <= now) return { ok: false, reason: "expired" };
      r.usedAt = now;
      if (!markVerified(r.userId, r.email)) return { ok: false, reason: "unknown" };
      return { ok: true, userId: r.userId, email: r.email };
    },
    async countSince(userId, since) {
      return [...rows.values()].filter((r) => r.userId === userId && r.createdAt >= since).length;
    },
  };
}
