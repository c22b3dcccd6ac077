// `executa/progress` notifications (T29, L3729–L3780): best-effort, correlated only through
// `params.context.invoke_id`, ≤ 50 per second and ≤ 8 KB each per invoke, `type` coerced to
// `progress|tool_update` so a plugin cannot fake terminal states. Anything that cannot be
// delivered is dropped without a reply (it is a notification).
import type { ProgressType } from "@anna-ai/app-schema";

/** A progress event delivered to `onProgress`, with the invoke it belongs to. */
export interface RouterProgressEvent {
  userId: string;
  toolId: string;
  invokeId: string;
  tool: string;
  type: ProgressType;
  /** `params.data` as sent (at most 8 KB once serialised). */
  data: unknown;
  /** Epoch ms when the host received it. */
  receivedAtMs: number;
}

export type RouterProgressListener = (event: RouterProgressEvent) => void;

/** Why a progress notification was dropped (logged at debug level). */
export type ProgressDrop =
  | "no_listener"
  | "not_an_object"
  | "no_invoke_id"
  | "unknown_invoke"
  | "rate_limited"
  | "too_large";

/** A fixed one-second window per invoke: cheap and good enough for a best-effort channel. */
export class ProgressRateLimiter {
  #windowStartMs = Number.NEGATIVE_INFINITY;
  #count = 0;
  readonly #maxPerSecond: number;

  constructor(maxPerSecond: number) {
    this.#maxPerSecond = maxPerSecond;
  }

  tryTake(nowMs: number): boolean {
    if (nowMs - this.#windowStartMs >= 1000) {
      this.#windowStartMs = nowMs;
      this.#count = 0;
    }
    if (this.#count >= this.#maxPerSecond) return false;
    this.#count += 1;
    return true;
  }
}

export function coerceProgressType(type: unknown): ProgressType {
  return type === "tool_update" ? "tool_update" : "progress";
}

/** UTF-8 bytes of the serialised data; undefined when it cannot be serialised. */
export function progressBytes(data: unknown): number | undefined {
  try {
    const text = JSON.stringify(data ?? null);
    return Buffer.byteLength(text, "utf8");
  } catch {
    return undefined;
  }
}
