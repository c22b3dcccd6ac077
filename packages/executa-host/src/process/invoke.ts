// The `invoke` request as plugins in the wild read it (H9, T7, T11) and the result shapes they
// send back (real-world-plugins.md "Base protocol").

import type { RpcError } from "@anna-ai/jsonrpc";
import type { DescribedManifest } from "./manifest.js";

export const DEFAULT_INVOKE_TIMEOUT_MS = 60_000;

/** An invoke's time limit: the caller's, else the tool's declared `timeout` (s), else `fallbackMs`. */
export function invokeTimeoutMs(
  manifest: DescribedManifest | undefined,
  tool: string,
  givenMs: number | undefined,
  fallbackMs: number = DEFAULT_INVOKE_TIMEOUT_MS,
): number {
  if (givenMs !== undefined) return givenMs;
  const declared = manifest?.tools.find((entry) => entry.name === tool)?.timeout;
  return typeof declared === "number" ? declared * 1000 : fallbackMs;
}

export interface InvokeParamsInput {
  tool: string;
  /** The LLM-supplied arguments; `undefined` becomes `{}` (never `null`, H9). */
  args: Record<string, unknown> | undefined;
  invokeId: string;
  /** `context.plugin_name`: the manifest name, else the tool_id. */
  pluginName: string;
  /** Epoch ms (H9: `context.deadline_ms`). */
  deadlineMs: number;
  /** Per-invoke credentials (H10); omitted from the context when absent. */
  credentials?: Readonly<Record<string, string>>;
  /** Per-invoke tokens and other context fields from the router (`sampling_token`, …). */
  extraContext?: Readonly<Record<string, string>>;
}

export interface InvokeContext {
  invoke_id: string;
  plugin_name: string;
  deadline_ms: number;
  credentials?: Record<string, string>;
  [token: string]: unknown;
}

export interface InvokeParams {
  tool: string;
  /** Same value as `tool`: one real bundle selects the tool from `params.name`. */
  name: string;
  arguments: Record<string, unknown>;
  /** Also at the top level: plugins read it there, SDK helpers read `context.invoke_id`. */
  invoke_id: string;
  context: InvokeContext;
}

export function buildInvokeParams(input: InvokeParamsInput): InvokeParams {
  const context: InvokeContext = {
    ...input.extraContext,
    invoke_id: input.invokeId,
    plugin_name: input.pluginName,
    deadline_ms: input.deadlineMs,
  };
  if (input.credentials !== undefined) context.credentials = { ...input.credentials };
  return {
    tool: input.tool,
    name: input.tool,
    arguments: input.args ?? {},
    invoke_id: input.invokeId,
    context,
  };
}

/**
 * What one invoke ended with. `tool_failed` is an expected, recoverable failure the LLM should
 * see (`success: false`); `rpc_error` is a protocol or host failure (JSON-RPC error frame, timeout,
 * exit, oversized frame, stopped plugin), always with `data.errorCode` when the host produced it.
 */
export type InvokeOutcome =
  | { ok: true; data: unknown; durationMs: number; raw: unknown }
  | { ok: false; kind: "tool_failed"; error: string; durationMs: number; raw: unknown }
  | { ok: false; kind: "rpc_error"; error: RpcError; durationMs: number };

/** The `InvokeResult` wire shape `{success, data, error, duration_ms}` (T7). */
export interface InvokeResultWire {
  success: boolean;
  data?: unknown;
  error?: string;
  duration_ms: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error === undefined || error === null) return "tool failed without an error message";
  if (isRecord(error) && typeof error.message === "string") return error.message;
  return JSON.stringify(error);
}

/**
 * `{success:true,data}` → ok; `{success:false,error}` → tool failure; anything without a boolean
 * `success` (one real bundle answers with a bare payload) → ok with the whole result as data.
 */
export function normaliseInvokeResult(raw: unknown, durationMs: number): InvokeOutcome {
  if (isRecord(raw) && typeof raw.success === "boolean") {
    if (raw.success) return { ok: true, data: raw.data ?? null, durationMs, raw };
    return { ok: false, kind: "tool_failed", error: errorText(raw.error), durationMs, raw };
  }
  return { ok: true, data: raw ?? null, durationMs, raw };
}

export function toInvokeResultWire(outcome: InvokeOutcome): InvokeResultWire {
  const duration_ms = Math.round(outcome.durationMs);
  if (outcome.ok) return { success: true, data: outcome.data, duration_ms };
  if (outcome.kind === "tool_failed") return { success: false, error: outcome.error, duration_ms };
  return { success: false, error: outcome.error.message, duration_ms };
}
