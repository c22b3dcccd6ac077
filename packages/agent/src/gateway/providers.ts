// The AI SDK provider behind each configured endpoint. The key is revealed here only, into the
// provider's header builder; `fetch` is injectable so tests can count requests.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModel, ImageModel, LanguageModel } from "ai";

/** The provider packages here all make V3 models (the spec version `wrapLanguageModel` takes). */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: "v3" }>;
import type { ModelEndpoint } from "../config/llm-config.js";
import { GatewayError } from "./gateway-error.js";

export type FetchFunction = typeof globalThis.fetch;

/** The name the openai-compatible provider reports (`providerMetadata` key). */
const COMPATIBLE_NAME = "openai-compatible";

export function languageModel(endpoint: ModelEndpoint, fetch?: FetchFunction): LanguageModelV3 {
  const model = requireModel(endpoint, "model");
  const apiKey = endpoint.apiKey?.reveal();
  switch (endpoint.provider) {
    case "openai": {
      const openai = createOpenAI({ apiKey, baseURL: endpoint.baseUrl, fetch });
      return endpoint.openaiApi === "chat" ? openai.chat(model) : openai.responses(model);
    }
    case "anthropic":
      return createAnthropic({ apiKey, baseURL: endpoint.baseUrl, fetch })(model);
    case "openai-compatible":
      return compatible(endpoint, fetch).chatModel(model);
    case "offline":
      throw new Error("the offline model has no AI SDK provider");
  }
}

export function embeddingModel(endpoint: ModelEndpoint, fetch?: FetchFunction): EmbeddingModel {
  return mediaModel(endpoint, fetch, "embeddings", {
    openai: (provider, id) => provider.embedding(id),
    compatible: (provider, id) => provider.embeddingModel(id),
  });
}

export function imageModel(endpoint: ModelEndpoint, fetch?: FetchFunction): ImageModel {
  return mediaModel(endpoint, fetch, "images", {
    openai: (provider, id) => provider.image(id),
    compatible: (provider, id) => provider.imageModel(id),
  });
}

/** Embeddings and images: only OpenAI and OpenAI-compatible servers have them. */
function mediaModel<T>(
  endpoint: ModelEndpoint,
  fetch: FetchFunction | undefined,
  what: "embeddings" | "images",
  make: {
    openai: (provider: ReturnType<typeof createOpenAI>, model: string) => T;
    compatible: (provider: ReturnType<typeof compatible>, model: string) => T;
  },
): T {
  if (endpoint.provider !== "openai" && endpoint.provider !== "openai-compatible") {
    throw notSupported(endpoint, what);
  }
  const model = requireModel(endpoint, "model");
  if (endpoint.provider === "openai-compatible")
    return make.compatible(compatible(endpoint, fetch), model);
  return make.openai(
    createOpenAI({ apiKey: endpoint.apiKey?.reveal(), baseURL: endpoint.baseUrl, fetch }),
    model,
  );
}

function compatible(endpoint: ModelEndpoint, fetch?: FetchFunction) {
  return createOpenAICompatible({
    name: COMPATIBLE_NAME,
    // Checked by the config: openai-compatible always has a base URL.
    baseURL: endpoint.baseUrl ?? "",
    ...(endpoint.apiKey !== undefined ? { apiKey: endpoint.apiKey.reveal() } : {}),
    // Ollama, vLLM and llama.cpp report usage only when asked (`stream_options.include_usage`).
    includeUsage: true,
    supportsStructuredOutputs: endpoint.structuredOutput,
    fetch,
  });
}

/** The env var a purpose's setting is read from, for messages. */
export function envName(endpoint: ModelEndpoint, field: "model" | "provider"): string {
  const prefix =
    endpoint.purpose === "chat" ? "ANNA_LLM_" : `ANNA_${endpoint.purpose.toUpperCase()}_`;
  return `${prefix}${field.toUpperCase()}`;
}

function requireModel(endpoint: ModelEndpoint, field: "model"): string {
  if (endpoint.model !== undefined) return endpoint.model;
  throw new GatewayError(
    "not_configured",
    `no ${endpoint.purpose} model is configured for ${endpoint.provider}: set ${envName(endpoint, field)} (or "${endpoint.purpose}.model" in the config file)`,
    { provider: endpoint.provider },
  );
}

function notSupported(endpoint: ModelEndpoint, what: "embeddings" | "images"): GatewayError {
  return new GatewayError(
    "not_supported",
    `${what} are not supported by ${endpoint.provider}; set ${envName(endpoint, "provider")} to openai or openai-compatible (with its own base URL, key and model) to serve them`,
    { provider: endpoint.provider },
  );
}
