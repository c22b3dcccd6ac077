// Bounded retries for provider calls: 429 and 5xx (and an unreachable server) are tried again
// with exponential backoff and full jitter, honouring `retry-after` when the provider sends one.
// A `retry-after` longer than `maxRetryAfterMs` is not waited out: the caller gets
// `rate_limited` with the delay at once, since a plugin's invoke could not wait that long anyway.
import type { GatewayError } from "./gateway-error.js";
import { isRetryableStatus } from "./gateway-error.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest `retry-after` the gateway waits for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<Omit<RetryPolicy, "maxRetries">> = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** Waits `ms`, or rejects when `signal` aborts. Injected in tests to record the delays. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * The delay before retry number `retry` (0-based) after `error`, or undefined when the error
 * must not be retried.
 */
export function retryDelayMs(
  error: GatewayError,
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (retry >= policy.maxRetries) return undefined;
  const retryable =
    error.code === "unreachable" || (error.status !== undefined && isRetryableStatus(error.status));
  if (!retryable) return undefined;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
