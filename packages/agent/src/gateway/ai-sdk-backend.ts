// The backends over the AI SDK: `streamText`/`generateText` for chat, `embedMany`, and
// `generateImage`. The SDK's own retries are off (`maxRetries: 0`): the gateway retries, so the
// policy (backoff, `retry-after`, the bound) is one and tested.
import { embedMany, generateImage, generateText, streamText, wrapLanguageModel } from "ai";
import type { LanguageModelMiddleware } from "ai";
import type { ModelEndpoint } from "../config/llm-config.js";
import type { ChatBackend, EmbedBackend, ImageBackend } from "./backend.js";
import { GatewayError } from "./gateway-error.js";
import { finishReason, toModelMessages, toToolChoice, toToolSet, toUsage } from "./messages.js";
import type { FetchFunction, LanguageModelV3 } from "./providers.js";
import { embeddingModel, imageModel, languageModel } from "./providers.js";
import type { ChatEvent, ChatRequest } from "./types.js";

export function aiSdkChatBackend(endpoint: ModelEndpoint, fetch?: FetchFunction): ChatBackend {
  const base = languageModel(endpoint, fetch);
  const info = { provider: endpoint.provider, model: endpoint.model ?? "" };

  const settings = (request: ChatRequest, signal: AbortSignal) => ({
    model: withResponseFormat(base, request),
    ...(request.system !== undefined ? { system: request.system } : {}),
    messages: toModelMessages(request.messages),
    tools: toToolSet(request.tools),
    toolChoice: toToolChoice(request.toolChoice),
    ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.stopSequences !== undefined ? { stopSequences: [...request.stopSequences] } : {}),
    abortSignal: signal,
    maxRetries: 0,
  });

  return {
    ...info,
    async *stream(request, signal): AsyncIterable<ChatEvent> {
      const result = streamText({
        ...settings(request, signal),
        // Errors arrive as `error` parts below; the default handler would print them.
        onError: () => undefined,
      });
      for await (const part of result.fullStream) {
        switch (part.type) {
          case "text-delta":
            if (part.text !== "") yield { type: "text-delta", text: part.text };
            break;
          case "tool-call":
            yield {
              type: "tool-call",
              id: part.toolCallId,
              name: part.toolName,
              input: part.input,
            };
            break;
          case "finish":
            yield {
              type: "finish",
              finishReason: finishReason(part.finishReason),
              rawFinishReason: part.rawFinishReason,
              usage: toUsage(part.totalUsage),
              ...info,
            };
            return;
          case "error":
            throw part.error;
          case "abort":
            throw new GatewayError("aborted", `the ${endpoint.provider} stream was cancelled`, {
              provider: endpoint.provider,
            });
          default:
            break;
        }
      }
    },
    async generate(request, signal) {
      const result = await generateText(settings(request, signal));
      return {
        ...info,
        text: result.text,
        toolCalls: result.toolCalls.map((c) => ({
          id: c.toolCallId,
          name: c.toolName,
          input: c.input,
        })),
        finishReason: finishReason(result.finishReason),
        rawFinishReason: result.rawFinishReason,
        usage: toUsage(result.totalUsage),
      };
    },
  };
}

/** The request's JSON response format, set on the provider call itself (T18). */
function withResponseFormat(model: LanguageModelV3, request: ChatRequest): LanguageModelV3 {
  const format = request.responseFormat;
  if (format === undefined) return model;
  const middleware: LanguageModelMiddleware = {
    specificationVersion: "v3",
    transformParams: ({ params }) =>
      Promise.resolve({
        ...params,
        responseFormat: {
          type: "json",
          ...(format.schema !== undefined ? { schema: format.schema } : {}),
          ...(format.name !== undefined ? { name: format.name } : {}),
        },
      }),
  };
  return wrapLanguageModel({ model, middleware });
}

export function aiSdkEmbedBackend(
  endpoint: ModelEndpoint & { dimensions: number },
  fetch?: FetchFunction,
): EmbedBackend {
  const model = embeddingModel(endpoint, fetch);
  return {
    provider: endpoint.provider,
    model: endpoint.model ?? "",
    async embed(values, signal) {
      const result = await embedMany({
        model,
        values: [...values],
        abortSignal: signal,
        maxRetries: 0,
        // OpenAI's text-embedding-3 models shorten to the alias's fixed size; others ignore it.
        ...(endpoint.provider === "openai"
          ? { providerOptions: { openai: { dimensions: endpoint.dimensions } } }
          : {}),
      });
      return { vectors: result.embeddings, usage: { inputTokens: result.usage.tokens } };
    },
  };
}

export function aiSdkImageBackend(endpoint: ModelEndpoint, fetch?: FetchFunction): ImageBackend {
  const model = imageModel(endpoint, fetch);
  return {
    provider: endpoint.provider,
    model: endpoint.model ?? "",
    async generate(request, signal) {
      const result = await generateImage({
        model,
        prompt: request.prompt,
        n: request.n,
        ...(request.size !== undefined ? { size: request.size } : {}),
        abortSignal: signal,
        maxRetries: 0,
      });
      return result.images.map((image) => ({ base64: image.base64, mediaType: image.mediaType }));
    },
    // The SDK sends a prompt with images to the provider's `/images/edits` as multipart form data.
    async edit(request, signal) {
      const result = await generateImage({
        model,
        prompt: {
          text: request.prompt,
          images: request.images.map((image) => image.bytes),
          ...(request.mask !== undefined ? { mask: request.mask.bytes } : {}),
        },
        n: request.n,
        ...(request.size !== undefined ? { size: request.size } : {}),
        abortSignal: signal,
        maxRetries: 0,
      });
      return result.images.map((image) => ({ base64: image.base64, mediaType: image.mediaType }));
    },
  };
}
