// Fixed-window counters keyed by string, on the injected clock. In-process: a scaled-out
// deployment swaps in a shared implementation of the same interface.
import type { Clock } from "../core/clock.js";

export interface RateLimiter {
  /** Counts one hit; returns seconds to wait when over `limit`, else 0. */
  hit(key: string, limit: number, windowMs: number): number;
  /** Seconds to wait if `key` is already over `limit`, without counting. */
  check(key: string, limit: number, windowMs: number): number;
  reset(key: string): void;
}

const MAX_KEYS = 100_000;

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
  const wait = (
    w: { start: number; count: number },
    now: number,
    limit: number,
    windowMs: number,
  ) => (w.count > limit ? Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)) : 0);
  return {
    hit(key, limit, windowMs) {
      const { w, now } = current(key, windowMs);
      w.count++;
      return wait(w, now, limit, windowMs);
    },
    check(key, limit, windowMs) {
      const { w, now } = current(key, windowMs);
      return w.count >= limit ? wait({ ...w, count: w.count + 1 }, now, limit, windowMs) : 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
