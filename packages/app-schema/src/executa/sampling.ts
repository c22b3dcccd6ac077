import { z } from "zod";
import {
  ClientTimeoutSchema,
  ModelPreferencesSchema,
  reverseCorrelationShape,
  type ModelPreferences,
  type ReverseContext,
  type ReverseMetadata,
} from "./common.js";

/**
 * `sampling/createMessage` (T17, T18, R29). Params arrive in camelCase (the wire, MCP) and in
 * snake_case (some SDKs); `normalizeSamplingParams` gives the host one camelCase shape.
 */

/** Hard limits the host enforces with -32004 (L1694–L1750, L1840–L1850). */
export const SAMPLING_MAX_MESSAGES = 64;
export const DEFAULT_SAMPLING_MAX_TOKENS_PER_CALL = 8192;
export const RESPONSE_SCHEMA_MAX_BYTES = 32 * 1024;
export const RESPONSE_SCHEMA_MAX_DEPTH = 8;
export const RESPONSE_SCHEMA_MAX_NODES = 512;
export const RESPONSE_SCHEMA_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export const SamplingContentBlockSchema = z.looseObject({
  type: z.string().min(1),
  text: z.string().nullish(),
});
export type SamplingContentBlock = z.infer<typeof SamplingContentBlockSchema>;

export const SamplingMessageSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  /** MCP form is one block; a bare string or a block list is accepted too. */
  content: z.union([z.string(), SamplingContentBlockSchema, z.array(SamplingContentBlockSchema)]),
});
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

export const ResponseFormatSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string().regex(RESPONSE_SCHEMA_NAME_PATTERN),
      strict: z.boolean().nullish(),
      schema: z.record(z.string(), z.unknown()),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormatSchema>;

export const OnUnsupportedSchema = z.enum(["error", "json_object", "text"]);
export type OnUnsupported = z.infer<typeof OnUnsupportedSchema>;

export const SamplingCreateMessageParamsSchema = z
  .looseObject({
    messages: z.array(SamplingMessageSchema).min(1),
    maxTokens: z.number().int().positive().nullish(),
    max_tokens: z.number().int().positive().nullish(),
    systemPrompt: z.string().nullish(),
    system_prompt: z.string().nullish(),
    /** `null` lets the host pick (0.7, R29). */
    temperature: z.number().nullish(),
    stopSequences: z.array(z.string()).nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    modelPreferences: ModelPreferencesSchema.nullish(),
    model_preferences: ModelPreferencesSchema.nullish(),
    /** Only `"none"` is supported; anything else is -32004. */
    includeContext: z.literal("none").nullish(),
    include_context: z.literal("none").nullish(),
    responseFormat: ResponseFormatSchema.nullish(),
    response_format: ResponseFormatSchema.nullish(),
    onUnsupported: OnUnsupportedSchema.nullish(),
    on_unsupported: OnUnsupportedSchema.nullish(),
    /** Python SDK wall clock; the host clamps its own budget to [30 s, 300 s]. */
    _clientTimeoutS: ClientTimeoutSchema.nullish(),
    ...reverseCorrelationShape,
  })
  .refine((p) => typeof (p.maxTokens ?? p.max_tokens) === "number", {
    message: "maxTokens is required",
    path: ["maxTokens"],
  });
export type SamplingCreateMessageParams = z.infer<typeof SamplingCreateMessageParamsSchema>;

/** The canonical request a sampling service receives. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: ModelPreferences;
  includeContext: "none";
  responseFormat?: ResponseFormat;
  onUnsupported: OnUnsupported;
  clientTimeoutS?: number;
  metadata?: ReverseMetadata;
  context?: ReverseContext;
}

/** One camelCase shape; camelCase wins where both spellings are present. */
export function normalizeSamplingParams(params: SamplingCreateMessageParams): SamplingRequest {
  const systemPrompt = params.systemPrompt ?? params.system_prompt ?? undefined;
  const stopSequences = params.stopSequences ?? params.stop_sequences ?? undefined;
  const modelPreferences = params.modelPreferences ?? params.model_preferences ?? undefined;
  const responseFormat = params.responseFormat ?? params.response_format ?? undefined;
  return {
    messages: params.messages,
    // The refinement guarantees one of the two.
    maxTokens: (params.maxTokens ?? params.max_tokens) as number,
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(params.temperature !== undefined && params.temperature !== null
      ? { temperature: params.temperature }
      : {}),
    ...(stopSequences !== undefined ? { stopSequences } : {}),
    ...(modelPreferences !== undefined ? { modelPreferences } : {}),
    includeContext: "none",
    ...(responseFormat !== undefined ? { responseFormat } : {}),
    onUnsupported: params.onUnsupported ?? params.on_unsupported ?? "error",
    ...(typeof params._clientTimeoutS === "number"
      ? { clientTimeoutS: params._clientTimeoutS }
      : {}),
    ...(params.metadata ? { metadata: params.metadata } : {}),
    ...(params.context ? { context: params.context } : {}),
  };
}

/** `_meta.responseFormat` when a format was requested (T18). */
export const ResponseFormatMetaSchema = z.object({
  requested: z.string(),
  /** `null` when dropped via `onUnsupported: "text"`. */
  applied: z.string().nullable(),
  structuredValid: z.boolean(),
  downgraded: z.boolean(),
});

/** What the host answers. `content` is one object, not an array (real-world-plugins.md). */
export const SamplingCreateMessageResultSchema = z.object({
  role: z.literal("assistant"),
  content: z.object({ type: z.literal("text"), text: z.string() }),
  model: z.string(),
  /** `endTurn`, `maxTokens`, `stopSequence`. */
  stopReason: z.string(),
  usage: z.object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
  }),
  _meta: z
    .looseObject({
      provider: z.string().optional(),
      latencyMs: z.number().optional(),
      responseFormat: ResponseFormatMetaSchema.optional(),
    })
    .optional(),
});
export type SamplingCreateMessageResult = z.infer<typeof SamplingCreateMessageResultSchema>;
