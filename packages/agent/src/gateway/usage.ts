// Usage accounting and quotas for the gateway. Every call settles one `UsageRecord` per
// (user, app, purpose) on a `UsageSink`, and asks the `QuotaPolicy` first. Nexus implements both
// on SQL; the memory ledger here serves tests and the dev tools.
import type { CallAccount, CallPurpose } from "./types.js";

export interface UsageRecord {
  userId: string;
  appId: string | undefined;
  toolId: string | undefined;
  purpose: CallPurpose;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Images made (image calls only). */
  images: number;
  /** Epoch ms. */
  atMs: number;
}

export interface UsageSink {
  /** Called once per successful call, and for a failed stream with what it used so far. */
  record(usage: UsageRecord): void | Promise<void>;
}

export type QuotaDecision = { allowed: true } | { allowed: false; reason: string };

export interface QuotaPolicy {
  /** Asked before every call; a refusal fails the call with `quota_exceeded` and its reason. */
  check(account: CallAccount, purpose: CallPurpose): QuotaDecision | Promise<QuotaDecision>;
}

export interface MemoryQuotaLimits {
  /** Total tokens per user over the rolling window, across apps and purposes. */
  tokensPerUser?: number;
  /** Images per user over the rolling window. */
  imagesPerUser?: number;
  /** Rolling window; default 24 h. */
  windowMs?: number;
}

export const DEFAULT_QUOTA_WINDOW_MS = 24 * 3600 * 1000;
/** Records the memory ledger keeps; older ones are dropped (it is for tests and dev tools). */
export const MEMORY_USAGE_MAX_RECORDS = 100_000;

/** An in-memory `UsageSink` and `QuotaPolicy` over the same records. */
export class MemoryUsageLedger implements UsageSink, QuotaPolicy {
  readonly #records: UsageRecord[] = [];
  readonly #limits: MemoryQuotaLimits;
  readonly #clock: () => number;

  constructor(limits: MemoryQuotaLimits = {}, clock: () => number = Date.now) {
    this.#limits = limits;
    this.#clock = clock;
  }

  record(usage: UsageRecord): void {
    this.#records.push(usage);
    if (this.#records.length > MEMORY_USAGE_MAX_RECORDS) this.#records.shift();
  }

  check(account: CallAccount): QuotaDecision {
    const { tokensPerUser, imagesPerUser } = this.#limits;
    if (tokensPerUser === undefined && imagesPerUser === undefined) return { allowed: true };
    const used = this.totals({ userId: account.userId, sinceMs: this.#windowStart() });
    if (tokensPerUser !== undefined && used.totalTokens >= tokensPerUser) {
      return {
        allowed: false,
        reason: `user ${account.userId} used ${used.totalTokens} of ${tokensPerUser} tokens in the last ${this.#windowHours()} h`,
      };
    }
    if (imagesPerUser !== undefined && used.images >= imagesPerUser) {
      return {
        allowed: false,
        reason: `user ${account.userId} made ${used.images} of ${imagesPerUser} images in the last ${this.#windowHours()} h`,
      };
    }
    return { allowed: true };
  }

  /** The records, oldest first, optionally filtered. */
  list(filter: { userId?: string; appId?: string; purpose?: CallPurpose } = {}): UsageRecord[] {
    return this.#records.filter(
      (r) =>
        (filter.userId === undefined || r.userId === filter.userId) &&
        (filter.appId === undefined || r.appId === filter.appId) &&
        (filter.purpose === undefined || r.purpose === filter.purpose),
    );
  }

  /** Sums per (user, app, purpose) filter. */
  totals(
    filter: { userId?: string; appId?: string; purpose?: CallPurpose; sinceMs?: number } = {},
  ): {
    inputTokens: number;
    outputTokens: number;
    totalTokens: number;
    images: number;
    calls: number;
  } {
    const sum = { inputTokens: 0, outputTokens: 0, totalTokens: 0, images: 0, calls: 0 };
    for (const r of this.list(filter)) {
      if (filter.sinceMs !== undefined && r.atMs < filter.sinceMs) continue;
      sum.inputTokens += r.inputTokens;
      sum.outputTokens += r.outputTokens;
      sum.totalTokens += r.totalTokens;
      sum.images += r.images;
      sum.calls += 1;
    }
    return sum;
  }

  #windowStart(): number {
    return this.#clock() - (this.#limits.windowMs ?? DEFAULT_QUOTA_WINDOW_MS);
  }

  #windowHours(): number {
    return Math.round((this.#limits.windowMs ?? DEFAULT_QUOTA_WINDOW_MS) / 3_600_000);
  }
}
