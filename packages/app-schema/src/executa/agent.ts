import { z } from "zod";
import {
  ModelPreferencesSchema,
  reverseCorrelationShape,
  type ModelPreferences,
} from "./common.js";
import { SamplingCreateMessageResultSchema, SamplingMessageSchema } from "./sampling.js";

/**
 * Agent sessions (v2.1): `agent/session.*` and `agent/complete` (T21, R31–R37). The plugin only
 * ever sees the opaque `app_session_uuid` (`aps_…`); the host keeps the session token.
 */

export const AGENT_SESSION_UUID_PREFIX = "aps_";
export const AGENT_SESSION_TTL_DEFAULT_S = 600;
export const AGENT_SESSION_TTL_MAX_S = 7200;
export const AGENT_RUN_MAX_FRAMES = 4096;
export const AGENT_RECURSION_LIMIT_DEFAULT = 8;
export const AGENT_HISTORY_LIMIT_DEFAULT = 50;

export const AgentSubmodeSchema = z.enum(["auto", "fixed"]);
export type AgentSubmode = z.infer<typeof AgentSubmodeSchema>;

export const AgentQuotaCapsSchema = z.looseObject({
  inherit_host_tools: z.boolean().nullish(),
  allowed_tools: z.array(z.string()).nullish(),
});
export type AgentQuotaCaps = z.infer<typeof AgentQuotaCapsSchema>;

/**
 * Both documented shapes (V2): the SDK's `{kind: "agent"|"fixed", agent_submode}` (L2066) and
 * the Reference's `{agent_submode, fixed_client_id, quota_caps, ttl_seconds}` (R32).
 */
export const AgentSessionCreateParamsSchema = z.looseObject({
  kind: z.enum(["agent", "fixed", "complete"]).nullish(),
  agent_submode: AgentSubmodeSchema.nullish(),
  fixed_client_id: z.string().nullish(),
  /** ≤ 120 characters upstream. */
  label: z.string().nullish(),
  system_prompt: z.string().nullish(),
  systemPrompt: z.string().nullish(),
  quota_caps: AgentQuotaCapsSchema.nullish(),
  ttl_seconds: z.number().nullish(),
  ...reverseCorrelationShape,
});
export type AgentSessionCreateParams = z.infer<typeof AgentSessionCreateParamsSchema>;

export interface AgentSessionCreateRequest {
  submode: AgentSubmode;
  fixedClientId?: string;
  label?: string;
  systemPrompt?: string;
  quotaCaps?: AgentQuotaCaps;
  ttlSeconds: number;
}

/** One shape for the agent service: `kind: "fixed"` means the fixed submode. */
export function normalizeAgentSessionCreate(
  params: AgentSessionCreateParams,
): AgentSessionCreateRequest {
  const submode: AgentSubmode =
    params.agent_submode ?? (params.kind === "fixed" ? "fixed" : "auto");
  const systemPrompt = params.systemPrompt ?? params.system_prompt ?? undefined;
  return {
    submode,
    ...(params.fixed_client_id ? { fixedClientId: params.fixed_client_id } : {}),
    ...(params.label ? { label: params.label } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(params.quota_caps ? { quotaCaps: params.quota_caps } : {}),
    ttlSeconds: params.ttl_seconds ?? AGENT_SESSION_TTL_DEFAULT_S,
  };
}

export const AgentSessionCreateResultSchema = z.object({
  app_session_uuid: z.string().startsWith(AGENT_SESSION_UUID_PREFIX),
  thread_id: z.string(),
  agent_submode: AgentSubmodeSchema,
  fixed_client_id: z.string().nullable().optional(),
  /** `["*"]` when the session inherits the host's tools. */
  granted_tools: z.array(z.string()),
  expires_in: z.number().int().nonnegative(),
});
export type AgentSessionCreateResult = z.infer<typeof AgentSessionCreateResultSchema>;

const SessionUuidSchema = z.string().min(1);

export const AgentSessionRunParamsSchema = z.looseObject({
  app_session_uuid: SessionUuidSchema,
  content: z.string(),
  attachments: z.array(z.unknown()).nullish(),
  /** 1…32 upstream; default 8. */
  recursion_limit: z.number().int().nullish(),
  run_id: z.string().nullish(),
  allowed_tools: z.array(z.string()).nullish(),
  modelPreferences: ModelPreferencesSchema.nullish(),
  model_preferences: ModelPreferencesSchema.nullish(),
  system: z.string().nullish(),
  ...reverseCorrelationShape,
});
export type AgentSessionRunParams = z.infer<typeof AgentSessionRunParamsSchema>;

/** `modelPreferences` wins over the snake alias (R33). */
export function agentRunModelPreferences(
  params: AgentSessionRunParams,
): ModelPreferences | undefined {
  return params.modelPreferences ?? params.model_preferences ?? undefined;
}

/**
 * A buffered frame: `run_meta`, `delta`/`token`/`message` (`text`), `tool_call`, `tool_result`,
 * `final`, `complete`, `error`. The host adds `seq` and `stream_id`.
 */
export const AgentFrameSchema = z.looseObject({
  event: z.string(),
  seq: z.number().int().nonnegative().optional(),
  stream_id: z.string().optional(),
  text: z.string().optional(),
  name: z.string().optional(),
  args: z.unknown().optional(),
  call_id: z.string().optional(),
  ok: z.boolean().optional(),
  data: z.unknown().optional(),
  usage: z.record(z.string(), z.unknown()).optional(),
});
export type AgentFrame = z.infer<typeof AgentFrameSchema>;

export const AgentSessionRunResultSchema = z.object({
  run_id: z.string(),
  frames: z.array(AgentFrameSchema).max(AGENT_RUN_MAX_FRAMES),
  /** Text of the `final` frame; `null` when the run ended without one (cancelled). */
  final: z.string().nullable(),
});
export type AgentSessionRunResult = z.infer<typeof AgentSessionRunResultSchema>;

export const AgentSessionCancelParamsSchema = z.looseObject({
  app_session_uuid: SessionUuidSchema,
  run_id: z.string().min(1),
  ...reverseCorrelationShape,
});
export type AgentSessionCancelParams = z.infer<typeof AgentSessionCancelParamsSchema>;

export const AgentSessionCancelResultSchema = z.object({ cancelled: z.boolean() });
export type AgentSessionCancelResult = z.infer<typeof AgentSessionCancelResultSchema>;

export const AgentSessionHistoryParamsSchema = z.looseObject({
  app_session_uuid: SessionUuidSchema,
  /** 1…200, rejected (not clamped) outside (R35). */
  limit: z.number().int().nullish(),
  cursor: z.string().nullish(),
  ...reverseCorrelationShape,
});
export type AgentSessionHistoryParams = z.infer<typeof AgentSessionHistoryParamsSchema>;

export const AgentHistoryMessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown(),
});
export type AgentHistoryMessage = z.infer<typeof AgentHistoryMessageSchema>;

export const AgentSessionHistoryResultSchema = z.object({
  messages: z.array(AgentHistoryMessageSchema),
  next_cursor: z.string().nullable(),
});
export type AgentSessionHistoryResult = z.infer<typeof AgentSessionHistoryResultSchema>;

export const AgentSessionDeleteParamsSchema = z.looseObject({
  app_session_uuid: SessionUuidSchema,
  ...reverseCorrelationShape,
});
export type AgentSessionDeleteParams = z.infer<typeof AgentSessionDeleteParamsSchema>;

/** Idempotent: an unknown uuid deletes fine. */
export const AgentSessionDeleteResultSchema = z.object({ deleted: z.boolean() });
export type AgentSessionDeleteResult = z.infer<typeof AgentSessionDeleteResultSchema>;

export const AgentSessionListParamsSchema = z.looseObject({
  include_expired: z.boolean().nullish(),
  limit: z.number().int().nullish(),
  ...reverseCorrelationShape,
});
export type AgentSessionListParams = z.infer<typeof AgentSessionListParamsSchema>;

export const AgentSessionSummarySchema = z.object({
  app_session_uuid: z.string(),
  submode: AgentSubmodeSchema.nullable(),
  label: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type AgentSessionSummary = z.infer<typeof AgentSessionSummarySchema>;

export const AgentSessionListResultSchema = z.object({
  sessions: z.array(AgentSessionSummarySchema),
});
export type AgentSessionListResult = z.infer<typeof AgentSessionListResultSchema>;

export const AgentSessionRefreshParamsSchema = z.looseObject({
  app_session_uuid: SessionUuidSchema,
  ttl_seconds: z.number().nullish(),
  ...reverseCorrelationShape,
});
export type AgentSessionRefreshParams = z.infer<typeof AgentSessionRefreshParamsSchema>;

export const AgentSessionRefreshResultSchema = z.object({
  app_session_uuid: z.string(),
  expires_in: z.number().int().nonnegative(),
  expires_at: z.string(),
});
export type AgentSessionRefreshResult = z.infer<typeof AgentSessionRefreshResultSchema>;

/** `agent/complete`: one stateless completion (R37). Content blocks pass through verbatim. */
export const AgentCompleteParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema.extend({ content: z.unknown() })).min(1),
  maxTokens: z.number().int().positive().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  modelPreferences: ModelPreferencesSchema.nullish(),
  systemPrompt: z.string().nullish(),
  system_prompt: z.string().nullish(),
  temperature: z.number().nullish(),
  stopSequences: z.array(z.string()).nullish(),
  ...reverseCorrelationShape,
});
export type AgentCompleteParams = z.infer<typeof AgentCompleteParamsSchema>;

/** Same MCP completion shape as sampling and the App `llm.complete`. */
export const AgentCompleteResultSchema = SamplingCreateMessageResultSchema;
export type AgentCompleteResult = z.infer<typeof AgentCompleteResultSchema>;
