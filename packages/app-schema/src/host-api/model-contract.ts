// `llm.*`, `agent.*`, `image.*`, `upload.*` (R104–R128): thin adapters onto the host services the
// plugins' reverse RPCs use, so arguments and results reuse those schemas where the app side
// takes the same shape.
import { z } from "zod";
import {
  AgentSessionCancelParamsSchema,
  AgentSessionCancelResultSchema,
  AgentSessionDeleteParamsSchema,
  AgentSessionDeleteResultSchema,
  AgentSessionHistoryParamsSchema,
  AgentSessionHistoryResultSchema,
  AgentSessionListParamsSchema,
  AgentSessionListResultSchema,
  AgentSessionRefreshParamsSchema,
  AgentSessionRunParamsSchema,
} from "../executa/agent.js";
import {
  EmbeddingsCreateParamsSchema,
  EmbeddingsCreateResultSchema,
} from "../executa/embeddings.js";
import { ImageResultSchema } from "../executa/image.js";
import {
  SamplingCreateMessageParamsSchema,
  SamplingCreateMessageResultSchema,
} from "../executa/sampling.js";
import { HostUploadFileResultSchema, HostUploadNegotiateResultSchema } from "../executa/upload.js";
import {
  hostMethod,
  JsonObjectSchema,
  NoArgsSchema,
  SERVICE_ERROR_CODES,
  lazySchema,
} from "./method-contract.js";

/** `max_tokens_per_call` when neither the app nor the grant sets one (R105). */
export const LLM_MAX_TOKENS_PER_CALL = 4096;
export const AGENT_LABEL_MAX_CHARS = 120;
export const AGENT_SYSTEM_PROMPT_MAX_CHARS = 32_000;
export const IMAGE_APP_MAX_N = 8;

/**
 * `maxTokens` is optional for apps (R119): the per-call cap fills it in before the sampling
 * schema (which requires it) runs. Typed with the sampling schema's input, where it is optional.
 */
export const LlmCompleteArgsSchema = lazySchema(
  () =>
    z.preprocess((value) => {
      if (typeof value !== "object" || value === null) return value;
      const v = value as Record<string, unknown>;
      return v.maxTokens == null && v.max_tokens == null
        ? { ...v, maxTokens: LLM_MAX_TOKENS_PER_CALL }
        : v;
    }, SamplingCreateMessageParamsSchema) as unknown as z.ZodType<
      z.output<typeof SamplingCreateMessageParamsSchema>,
      z.input<typeof SamplingCreateMessageParamsSchema>
    >,
);

/** The session as create/refresh answer it; hosts add fields (`expires_at`, lifetimes). */
export const AgentSessionInfoSchema = lazySchema(() =>
  z.looseObject({
    app_session_uuid: z.string(),
    thread_id: z.string().optional(),
    agent_submode: z.enum(["auto", "fixed"]).optional(),
    submode: z.enum(["auto", "fixed"]).nullish(),
    fixed_client_id: z.string().nullish(),
    granted_tools: z.array(z.string()).optional(),
    expires_in: z.number().optional(),
    expires_at: z.string().optional(),
    max_lifetime_at: z.string().optional(),
    idle_ttl_seconds: z.number().optional(),
  }),
);

/** A raw stream call's answer: frames follow as `rpc.stream` events on `stream_id`. */
const StreamStartSchema = lazySchema(() => z.looseObject({ stream_id: z.string() }));

const LLM_ERRORS = [...SERVICE_ERROR_CODES, "llm_disabled"] as const;
const AGENT_ERRORS = [
  ...LLM_ERRORS,
  "APP_SESSION_NOT_FOUND",
  "APP_SESSION_EXPIRED",
  "APP_SESSION_REVOKED",
] as const;

export const LLM_CONTRACT = {
  "llm.complete": hostMethod(LlmCompleteArgsSchema, () => SamplingCreateMessageResultSchema, [
    ...LLM_ERRORS,
    "APP_MODEL_NOT_VISION_CAPABLE",
  ]),
  /** R120: `model_token` frames, then a terminal `complete` frame with the whole answer. */
  "llm.stream": hostMethod(LlmCompleteArgsSchema, StreamStartSchema, [
    ...LLM_ERRORS,
    "APP_MODEL_NOT_VISION_CAPABLE",
  ]),
  "llm.embed": hostMethod(
    () => EmbeddingsCreateParamsSchema.extend({ user: z.string().nullish() }),
    () => EmbeddingsCreateResultSchema,
    LLM_ERRORS,
  ),
} as const;

export const AGENT_CONTRACT = {
  /** Each submode is off until `ui.host_api.agent.session.{auto, fixed}` enables it (R104, R107). */
  "agent.session.create": hostMethod(
    () =>
      z.looseObject({
        submode: z.enum(["auto", "fixed"]),
        fixed_client_id: z.string().min(1).nullish(),
        fixedClientId: z.string().min(1).nullish(),
        label: z.string().max(AGENT_LABEL_MAX_CHARS).nullish(),
        systemPrompt: z.string().max(AGENT_SYSTEM_PROMPT_MAX_CHARS).nullish(),
        system_prompt: z.string().max(AGENT_SYSTEM_PROMPT_MAX_CHARS).nullish(),
        quotaCaps: JsonObjectSchema().nullish(),
      }),
    AgentSessionInfoSchema,
    LLM_ERRORS,
  ),
  /** R109: the terminal frame is always `{event: "end", run_id}`. */
  "agent.session.run": hostMethod(
    () =>
      AgentSessionRunParamsSchema.extend({ content: z.string().trim().min(1, "content required") }),
    () => StreamStartSchema().extend({ run_id: z.string() }),
    AGENT_ERRORS,
  ),
  "agent.session.cancel": hostMethod(
    () => AgentSessionCancelParamsSchema,
    () => AgentSessionCancelResultSchema,
    AGENT_ERRORS,
  ),
  "agent.session.history": hostMethod(
    () => AgentSessionHistoryParamsSchema,
    () => AgentSessionHistoryResultSchema,
    AGENT_ERRORS,
  ),
  "agent.session.list": hostMethod(
    () => AgentSessionListParamsSchema,
    () => AgentSessionListResultSchema,
    LLM_ERRORS,
  ),
  "agent.session.delete": hostMethod(
    () => AgentSessionDeleteParamsSchema,
    () => AgentSessionDeleteResultSchema,
    LLM_ERRORS,
  ),
  "agent.session.refresh": hostMethod(
    () =>
      AgentSessionRefreshParamsSchema.extend({
        app_session_uuid: z.string().startsWith("aps_", "app_session_uuid must start with aps_"),
      }),
    AgentSessionInfoSchema,
    AGENT_ERRORS,
  ),
  /** The sandbox tools the manifest declares (`ui.host_api.agent.tools`). */
  "agent.session.catalog": hostMethod(
    NoArgsSchema,
    () =>
      z.looseObject({
        platform_tools: z.array(JsonObjectSchema()),
        inherit_host_tools_granted: z.boolean().optional(),
        manifest_declared: z.array(z.string()).optional(),
        user_granted: z.array(z.string()).optional(),
      }),
    LLM_ERRORS,
  ),
} as const;

const imageOptions = () => ({
  n: z.int().min(1).max(IMAGE_APP_MAX_N).optional(),
  size: z.string().optional(),
  model_hint: z.string().optional(),
});

export const IMAGE_CONTRACT = {
  "image.generate": hostMethod(
    () => z.looseObject({ prompt: z.string().min(1), ...imageOptions() }),
    () => ImageResultSchema,
    SERVICE_ERROR_CODES,
  ),
  /** `image_url` or its older name `image_ref`; one is required. */
  "image.edit": hostMethod(
    () =>
      z.looseObject({
        prompt: z.string().min(1),
        image_ref: z.string().min(1).optional(),
        image_url: z.string().min(1).optional(),
        ...imageOptions(),
      }),
    () => ImageResultSchema,
    SERVICE_ERROR_CODES,
  ),
} as const;

export const UPLOAD_CONTRACT = {
  "upload.inline": hostMethod(
    () =>
      z.looseObject({
        bytes_b64: z.string().min(1),
        mime: z.string().min(1),
        purpose: z.string().nullish(),
        filename: z.string().min(1).nullish(),
      }),
    () => HostUploadFileResultSchema,
    [...SERVICE_ERROR_CODES, "value_too_large"],
  ),
  /** `mime_type` or `mime`; one is required. */
  "upload.negotiate": hostMethod(
    () =>
      z.looseObject({
        filename: z.string().min(1).nullish(),
        mime_type: z.string().min(1).optional(),
        mime: z.string().min(1).optional(),
        size_bytes: z.int().positive().nullish(),
        purpose: z.string().nullish(),
      }),
    () => HostUploadNegotiateResultSchema,
    [...SERVICE_ERROR_CODES, "value_too_large"],
  ),
  "upload.confirm": hostMethod(
    () => z.looseObject({ r2_key: z.string().min(1, "r2_key required") }),
    () => HostUploadFileResultSchema,
    [...SERVICE_ERROR_CODES, "not_found"],
  ),
} as const;
