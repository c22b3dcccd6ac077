import { z } from "zod";

/**
 * `invoke` (T7, T11, H9). The host sends `{tool, name, arguments, invoke_id, context}` and never
 * `null` for `params`, `arguments` or `context` (that crashes some plugins).
 */

/** Per-invoke context the host injects (H9, T11). Never shown to the LLM. */
export const InvokeContextSchema = z.object({
  invoke_id: z.string(),
  plugin_name: z.string(),
  /** Epoch milliseconds; ≤ 0 means no deadline. */
  deadline_ms: z.number(),
  /** `{NAME: value}` for the declared credentials the user configured (H10). */
  credentials: z.record(z.string(), z.string()).optional(),
  sampling_token: z.string().optional(),
  storage_token: z.string().optional(),
  image_token: z.string().optional(),
  upload_token: z.string().optional(),
  credentials_token: z.string().optional(),
});
export type InvokeContext = z.infer<typeof InvokeContextSchema>;

/** What our host sends. `name` repeats `tool` for plugins that read it (real-world-plugins.md). */
export const InvokeParamsSchema = z.object({
  tool: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  invoke_id: z.string(),
  context: InvokeContextSchema,
});
export type InvokeParams = z.infer<typeof InvokeParamsSchema>;

/**
 * What a plugin may receive from any host (ours, the upstream agent, the upstream dev tool):
 * every field optional, tokens at the top level too (Reference form, Z6).
 */
export const IncomingInvokeParamsSchema = z.looseObject({
  tool: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.record(z.string(), z.unknown()).nullish(),
  invoke_id: z.string().nullish(),
  sampling_token: z.string().nullish(),
  context: z
    .looseObject({
      invoke_id: z.string().nullish(),
      plugin_name: z.string().nullish(),
      deadline_ms: z.number().nullish(),
      /** Non-string values are dropped by `normalizeInvokeParams`. */
      credentials: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
});
export type IncomingInvokeParams = z.infer<typeof IncomingInvokeParamsSchema>;

export interface NormalizedInvokeParams {
  /** `params.tool`, else `params.name`; `undefined` when neither is present. */
  tool: string | undefined;
  arguments: Record<string, unknown>;
  /** `context.invoke_id`, else top-level `invoke_id` (what SDK helpers do). */
  invokeId: string | undefined;
  pluginName: string | undefined;
  /** `undefined` when absent or ≤ 0 (no deadline). */
  deadlineMs: number | undefined;
  credentials: Record<string, string>;
  /** Every `*_token` found in `context`, then at the top level. */
  tokens: Record<string, string>;
}

function collectTokens(
  source: Record<string, unknown> | null | undefined,
  into: Record<string, string>,
): void {
  if (!source) return;
  for (const [key, value] of Object.entries(source)) {
    if (key.endsWith("_token") && typeof value === "string" && !(key in into)) into[key] = value;
  }
}

function stringEntries(source: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source ?? {})) {
    if (typeof value === "string") out[key] = value;
  }
  return out;
}

/** The plugin-side reading of invoke params, whichever host sent them. */
export function normalizeInvokeParams(params: IncomingInvokeParams): NormalizedInvokeParams {
  const context = params.context ?? undefined;
  const tokens: Record<string, string> = {};
  collectTokens(context, tokens);
  collectTokens(params, tokens);
  const deadline = context?.deadline_ms;
  return {
    tool: params.tool ?? params.name ?? undefined,
    arguments: params.arguments ?? {},
    invokeId: context?.invoke_id ?? params.invoke_id ?? undefined,
    pluginName: context?.plugin_name ?? undefined,
    deadlineMs: typeof deadline === "number" && deadline > 0 ? deadline : undefined,
    credentials: stringEntries(context?.credentials),
    tokens,
  };
}

/**
 * `InvokeResult` as a plugin should send it (T7, R23). `success` is required: the platform reads
 * a missing one as `false` (pitfall 5b). `error` is the message the LLM sees.
 */
export const InvokeResultSchema = z.object({
  success: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  duration_ms: z.number().nonnegative().optional(),
  /** Echo of the tool name (recommended, R23). */
  tool: z.string().optional(),
});
export type InvokeResult = z.infer<typeof InvokeResultSchema>;

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null) {
    const message = (error as Record<string, unknown>)["message"];
    if (typeof message === "string") return message;
  }
  return JSON.stringify(error) ?? String(error);
}

/**
 * Reads any invoke result the way real plugins mean it (real-world-plugins.md): a `success`
 * boolean decides; an object with only `error` is a failure; anything else without `success`
 * is a bare payload, i.e. success with that payload as `data`.
 */
export function normalizeInvokeResult(raw: unknown): InvokeResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { success: true, data: raw };
  }
  const record = raw as Record<string, unknown>;
  const success = record["success"];
  const durationMs = record["duration_ms"];
  const tool = record["tool"];
  const extras = {
    ...(typeof durationMs === "number" && durationMs >= 0 ? { duration_ms: durationMs } : {}),
    ...(typeof tool === "string" ? { tool } : {}),
  };
  if (typeof success === "boolean") {
    if (success)
      return { success, ...("data" in record ? { data: record["data"] } : {}), ...extras };
    const error = record["error"];
    return {
      success,
      error: error === undefined || error === null ? "tool failed" : errorText(error),
      ...("data" in record ? { data: record["data"] } : {}),
      ...extras,
    };
  }
  const keys = Object.keys(record);
  const error = record["error"];
  if (
    error !== undefined &&
    error !== null &&
    keys.every((key) => ["error", "tool", "duration_ms"].includes(key))
  ) {
    return { success: false, error: errorText(error), ...extras };
  }
  return { success: true, data: raw };
}
