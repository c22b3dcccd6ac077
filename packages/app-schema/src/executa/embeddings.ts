import { z } from "zod";
import { ClientTimeoutSchema, reverseCorrelationShape } from "./common.js";

/** `embeddings/create` (R54). Batches are rejected whole, never truncated. */

export const EMBED_MAX_INPUTS = 64;
export const EMBED_MAX_CHARS_PER_INPUT = 32_000;
export const DEFAULT_EMBED_MODEL = "anna-managed-v1";

export const EmbeddingsCreateParamsSchema = z.looseObject({
  /** A bare string is wrapped into a one-item batch. */
  input: z.union([z.string(), z.array(z.string())]),
  /** Host alias, not a provider model name. */
  model: z.string().nullish(),
  _clientTimeoutS: ClientTimeoutSchema.nullish(),
  ...reverseCorrelationShape,
});
export type EmbeddingsCreateParams = z.infer<typeof EmbeddingsCreateParamsSchema>;

export function embeddingInputs(params: EmbeddingsCreateParams): string[] {
  return typeof params.input === "string" ? [params.input] : params.input;
}

/** OpenAI-shaped result (real-world-plugins.md). */
export const EmbeddingsCreateResultSchema = z.object({
  object: z.literal("list"),
  model: z.string(),
  data: z.array(
    z.object({
      object: z.literal("embedding").optional(),
      index: z.number().int().nonnegative(),
      embedding: z.array(z.number()),
    }),
  ),
  usage: z.object({
    prompt_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
  }),
  _meta: z
    .looseObject({
      alias: z.string().optional(),
      dimensions: z.number().int().positive().optional(),
      backendModel: z.string().optional(),
    })
    .optional(),
});
export type EmbeddingsCreateResult = z.infer<typeof EmbeddingsCreateResultSchema>;
