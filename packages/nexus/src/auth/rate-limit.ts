// Fixed-window counters keyed by string, on the injected clock. Two implementations of one
// interface: in process memory (tests, the embedded single-instance server) and in the database
// (sql-rate-limit.ts), which every Nexus instance on that database shares.
import type { Clock } from "../core/clock.js";

export interface RateLimiter {
  /** Counts one hit; resolves to the seconds to wait when over `limit`, else 0. */
  hit(key: string, limit: number, windowMs: number): Promise<number>;
  /** Seconds to wait if `key` is already at `limit`, without counting. */
  check(key: string, limit: number, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

const MAX_KEYS = 100_000;

/** The `Retry-After` seconds of a window that started at `start` and holds `count` hits. */
export function retryAfterS(
  count: number,
  start: number,
  now: number,
  limit: number,
  windowMs: number,
): number {
  return count > limit ? Math.max(1, Math.ceil((start + windowMs - now) / 1000)) : 0;
}

export function memoryRateLimiter(clock: Clock): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string, windowMs: number) => {
    const now = clock.now();
    let w = windows.get(key);
    if (!w || now - w.start >= windowMs) {
      if (windows.size >= MAX_KEYS) windows.clear();
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    return { w, now };
  };
  return {
    async hit(key, limit, windowMs) {
      const { w, now } = current(key, windowMs);
      w.count++;
      return retryAfterS(w.count, w.start, now, limit, windowMs);
    },
    async check(key, limit, windowMs) {
      const { w, now } = current(key, windowMs);
      return w.count >= limit ? retryAfterS(w.count + 1, w.start, now, limit, windowMs) : 0;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
