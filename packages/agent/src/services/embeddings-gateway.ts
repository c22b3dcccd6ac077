// `embeddings/create` (and the app-side `llm.embed`) served through the gateway (R54–R55). The
// plugin names an alias (`anna-managed-v1`); the alias maps onto the embeddings model the server
// is configured with, at the alias's fixed dimensions. Inputs are checked exactly as the offline
// service checks them (one shared function), so both refuse the same batches with -32504.
import {
  DEFAULT_EMBED_MODEL,
  EMBED_MAX_CHARS_PER_INPUT,
  EMBED_MAX_INPUTS,
} from "@anna-ai/app-schema";
import type { EmbeddingsCreateResult } from "@anna-ai/app-schema";
import { EMBEDDINGS_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError, checkEmbeddingInputs } from "@anna-ai/executa-host";
import type { EmbeddingsService } from "@anna-ai/executa-host";
import type { LlmGateway } from "../gateway/types.js";
import { familyError } from "./family-error.js";

export interface GatewayEmbeddingsOptions {
  gateway: LlmGateway;
  /**
   * Dimensions of the default alias: the configured `embeddings.dimensions`, or a function of the
   * current configuration when it can change at run time (the admin settings).
   */
  dimensions: number | (() => number);
  /** Nexus cap on inputs per request; default 64. */
  maxInputs?: number;
  /** Nexus cap on characters per input; default 32 000. */
  maxCharsPerInput?: number;
}

export function createGatewayEmbeddingsService(
  options: GatewayEmbeddingsOptions,
): EmbeddingsService {
  const { gateway } = options;
  const dimensionsNow =
    typeof options.dimensions === "number"
      ? () => options.dimensions as number
      : options.dimensions;
  const maxInputs = options.maxInputs ?? EMBED_MAX_INPUTS;
  const maxChars = options.maxCharsPerInput ?? EMBED_MAX_CHARS_PER_INPUT;
  return {
    async create(params, ctx): Promise<EmbeddingsCreateResult> {
      const input = checkEmbeddingInputs(params.input, maxInputs, maxChars);
      const dimensions = dimensionsNow();
      const alias = params.model ?? DEFAULT_EMBED_MODEL;
      if (alias !== DEFAULT_EMBED_MODEL) {
        throw catalogError(
          EMBEDDINGS_ERRORS.INVALID_REQUEST,
          `unknown embedding model alias '${alias}'; available aliases: ${DEFAULT_EMBED_MODEL}`,
          { model: alias, aliases: [DEFAULT_EMBED_MODEL] },
        );
      }
      let result;
      try {
        result = await gateway.embed(
          { values: input },
          {
            account: {
              userId: ctx.userId,
              toolId: ctx.toolId,
              ...(ctx.app !== undefined ? { appId: ctx.app.appId } : {}),
            },
            purpose: "embeddings",
            signal: ctx.signal,
          },
        );
      } catch (error) {
        throw familyError(error, EMBEDDINGS_ERRORS);
      }
      if (result.dimensions !== dimensions || result.vectors.length !== input.length) {
        throw catalogError(
          EMBEDDINGS_ERRORS.PROVIDER_ERROR,
          `${result.provider} model ${result.model} returned ${result.vectors.length} vectors of ${result.dimensions} dimensions for ${input.length} inputs; alias ${alias} has ${dimensions}: set ANNA_EMBEDDINGS_DIMENSIONS=${result.dimensions} or use a model of that size`,
          { provider: result.provider, dimensions: result.dimensions, expected: dimensions },
        );
      }
      return {
        object: "list",
        model: alias,
        data: result.vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
        usage: { prompt_tokens: result.usage.inputTokens, total_tokens: result.usage.inputTokens },
        _meta: { alias, dimensions, backendModel: result.model, provider: result.provider },
      };
    },
  };
}
