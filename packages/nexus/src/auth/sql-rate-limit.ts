// The rate limiter several Nexus instances on one database share: one row per key in
// `rate_limits`, counted with a single INSERT … ON CONFLICT DO UPDATE … RETURNING, which both
// SQLite and PostgreSQL run atomically, so parallel hits on any instance never lose a count.
// A window that has run out restarts inside the same statement.
import { type Kysely, sql } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Database } from "../db/schema.js";
import { type RateLimiter, retryAfterS } from "./rate-limit.js";

/** Every this many hits an instance deletes stale rows (cheap: an indexed range delete). */
const PRUNE_EVERY_HITS = 1000;

export function sqlRateLimiter(db: Kysely<Database>, clock: Clock): RateLimiter {
  let hitsSincePrune = 0;
  const prune = async (now: number) => {
    hitsSincePrune = 0;
    await db.deleteFrom("rate_limits").where("expires_at", "<=", now).execute();
  };
  return {
    async hit(key, limit, windowMs) {
      const now = clock.now();
      if (++hitsSincePrune >= PRUNE_EVERY_HITS) await prune(now);
      // In an UPDATE SET every reference to a column reads the row as it was (both dialects),
      // so the three CASEs agree on whether the window ran out.
      const expired = sql<boolean>`rate_limits.expires_at <= ${now}`;
      const row = await db
        .insertInto("rate_limits")
        .values({ key, window_start: now, count: 1, expires_at: now + windowMs })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
            window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
            expires_at: sql<number>`case when ${expired} then ${now + windowMs} else rate_limits.expires_at end`,
          }),
        )
        .returning(["count", "window_start"])
        .executeTakeFirstOrThrow();
      return retryAfterS(Number(row.count), Number(row.window_start), now, limit, windowMs);
    },
    async check(key, limit, windowMs) {
      const now = clock.now();
      const row = await db
        .selectFrom("rate_limits")
        .select(["count", "window_start"])
        .where("key", "=", key)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (!row || Number(row.count) < limit) return 0;
      return retryAfterS(Number(row.count) + 1, Number(row.window_start), now, limit, windowMs);
    },
    async reset(key) {
      await db.deleteFrom("rate_limits").where("key", "=", key).execute();
    },
  };
}
