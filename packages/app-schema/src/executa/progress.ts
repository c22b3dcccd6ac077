import { z } from "zod";
import { reverseInvokeId } from "./common.js";

/**
 * `executa/progress` notifications (T29, L3729–L3780). Correlated only through the invoke id;
 * best-effort, dropped silently when they cannot be routed.
 */

export const PROGRESS_METHOD = "executa/progress";
export const PROGRESS_TYPES = Object.freeze(["progress", "tool_update"] as const);
export type ProgressType = (typeof PROGRESS_TYPES)[number];
export const PROGRESS_MAX_EVENT_BYTES = 8 * 1024;
export const PROGRESS_MAX_EVENTS_PER_S = 50;
export const PROGRESS_RING_SIZE = 500;

export const ProgressParamsSchema = z.looseObject({
  /** Anything but `progress`/`tool_update` is coerced to `progress`. */
  type: z.string().nullish(),
  data: z.unknown().nullish(),
  context: z.looseObject({ invoke_id: z.string().nullish() }).nullish(),
  /** Node and Go SDKs pass the id at the top level. */
  invoke_id: z.string().nullish(),
  metadata: z.looseObject({ executa_invoke_id: z.string().nullish() }).nullish(),
});
export type ProgressParams = z.infer<typeof ProgressParamsSchema>;

export interface ProgressEvent {
  type: ProgressType;
  data: unknown;
  /** `undefined` means the event has no owner and is dropped. */
  invokeId: string | undefined;
}

/** Coerces the type so a plugin cannot fake terminal states (`completed`, `failed`). */
export function normalizeProgress(params: ProgressParams): ProgressEvent {
  const type: ProgressType = params.type === "tool_update" ? "tool_update" : "progress";
  return { type, data: params.data ?? null, invokeId: reverseInvokeId(params) };
}
