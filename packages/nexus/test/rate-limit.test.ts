// One contract for both rate limiters (memory; SQL on SQLite and PostgreSQL), then the attack the
// SQL one exists for: a brute-force sign-in spread across two Nexus instances on one database.
import { describe, expect, it } from "vitest";
import { memoryRateLimiter, type RateLimiter } from "../src/auth/rate-limit.js";
import { sqlRateLimiter } from "../src/auth/sql-rate-limit.js";
import { manualClock, type ManualClock } from "../src/core/clock.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, harness } from "./helpers/harness.js";

useDialectCleanup();

const IMPLS: {
  name: string;
  skip: boolean;
  make: (clock: ManualClock) => Promise<[RateLimiter, RateLimiter]>;
}[] = [
  {
    name: "memory",
    skip: false,
    make: async (clock) => {
      const one = memoryRateLimiter(clock);
      return [one, one];
    },
  },
  ...DIALECTS.map((d) => ({
    name: d.name,
    skip: d.skip,
    // Two limiters on two connections to one database: what two servers hold.
    make: async (clock: ManualClock): Promise<[RateLimiter, RateLimiter]> => {
      const [a, b] = await d.openShared();
      return [sqlRateLimiter(a.db, clock), sqlRateLimiter(b.db, clock)];
    },
  })),
];

describe.each(IMPLS)("rate limiter contract on $name", (impl) => {
  it.skipIf(impl.skip)(
    "counts hits in a fixed window, says how long to wait, restarts the window and resets",
    async () => {
      const clock = manualClock();
      const [a, b] = await impl.make(clock);
      expect(await a.check("k", 3, 60_000)).toBe(0);
      expect(await a.hit("k", 3, 60_000)).toBe(0);
      expect(await b.hit("k", 3, 60_000)).toBe(0);
      expect(await a.check("k", 3, 60_000)).toBe(0);
      expect(await b.hit("k", 3, 60_000)).toBe(0);
      // At the limit: check refuses without counting, the next hit is over.
      expect(await a.check("k", 3, 60_000)).toBe(60);
      clock.advance(20_500);
      expect(await b.hit("k", 3, 60_000)).toBe(40);
      expect(await a.check("other", 3, 60_000)).toBe(0);
      clock.advance(39_500);
      expect(await a.check("k", 3, 60_000)).toBe(0);
      expect(await b.hit("k", 3, 60_000)).toBe(0);
      await a.hit("k", 3, 60_000);
      await a.hit("k", 3, 60_000);
      expect(await b.hit("k", 3, 60_000)).toBeGreaterThan(0);
      await b.reset("k");
      expect(await a.hit("k", 3, 60_000)).toBe(0);
    },
  );

  it.skipIf(impl.skip)("loses no count under 60 parallel hits from two instances", async () => {
    const clock = manualClock();
    const [a, b] = await impl.make(clock);
    const waits = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit("burst", 10, 60_000)),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
    expect(waits.filter((w) => w === 60)).toHaveLength(50);
  });
});

describe.each(DIALECTS)("brute-force sign-in across two instances on $name", (d) => {
  const attack = async (shared: boolean) => {
    const clock = manualClock();
    const [dbA, dbB] = await d.openShared();
    const limits = (db: typeof dbA) =>
      shared ? { rateLimiter: sqlRateLimiter(db.db, clock) } : {};
    const a = harness(dbA, {}, { clock, ...limits(dbA) });
    const b = harness(dbB, {}, { clock, ...limits(dbB) });
    await a.signup("victim@example.com", "the real password");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const res = await (i % 2 ? a : b).req("POST", "/api/v1/auth/signin", {
        body: { email: "victim@example.com", password: `guess-${i}-xxxx` },
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
    }
    const right = await a.req("POST", "/api/v1/auth/signin", {
      body: { email: "victim@example.com", password: "the real password" },
    });
    return { statuses, retryAfter, right };
  };

  it.skipIf(d.skip)(
    "is limited after five failures in all, on either instance, with Retry-After",
    async () => {
      const { statuses, retryAfter, right } = await attack(true);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5)).toEqual(Array(7).fill(429));
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
      // Even the right password waits out the window: the attacker learns nothing from it.
      expect(right.status).toBe(429);
      expect(await detail(right)).toMatchObject({ code: "rate_limited" });
    },
  );

  it.skipIf(d.skip)(
    "gets twice the guesses when each instance counts in its own memory (why the SQL store exists)",
    async () => {
      const { statuses } = await attack(false);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    },
  );
});

describe.each(DIALECTS)("SQL rate limiter housekeeping on $name", (d) => {
  it.skipIf(d.skip)(
    "deletes rows whose window ended once every 1,000 hits",
    async () => {
      const clock = manualClock();
      const [h] = await d.openShared();
      const limiter = sqlRateLimiter(h.db, clock);
      await limiter.hit("stale", 5, 1_000);
      clock.advance(1_000);
      const rows = () =>
        h.db.selectFrom("rate_limits").select("key").where("key", "=", "stale").execute();
      for (let i = 0; i < 998; i++) await limiter.hit("busy", 5_000, 60_000);
      expect(await rows()).toHaveLength(1);
      await limiter.hit("busy", 5_000, 60_000);
      expect(await rows()).toHaveLength(0);
      // The live window survived the prune and kept counting.
      expect(await limiter.check("busy", 999, 60_000)).toBeGreaterThan(0);
    },
    60_000,
  );
});
