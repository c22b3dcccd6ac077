// The LLM gateway: one object the agent, the host services and Nexus call for chat, completions,
// embeddings and images. Per call it asks the quota policy, picks the purpose's backend, bounds
// the call in time, retries what is worth retrying (before any output reached the caller),
// turns every failure into a GatewayError without secrets, and records usage per
// (user, app, purpose).
import type { MockFixture } from "@anna-ai/executa-host";
import type { LlmConfig, ModelEndpoint } from "../config/llm-config.js";
import {
  offlineChatBackend,
  offlineEmbedBackend,
  offlineImageBackend,
} from "../offline/offline-backend.js";
import { aiSdkChatBackend, aiSdkEmbedBackend, aiSdkImageBackend } from "./ai-sdk-backend.js";
import type { ChatBackend, EmbedBackend, ImageBackend } from "./backend.js";
import { DEFAULT_MAX_RESPONSE_BYTES, boundedFetch } from "./bounded-fetch.js";
import { GatewayError, toGatewayError } from "./gateway-error.js";
import type { FetchFunction } from "./providers.js";
import type { RetryPolicy, Sleep } from "./retry.js";
import { routeSdkWarnings } from "./sdk-warnings.js";
import { DEFAULT_RETRY_POLICY, realSleep, retryDelayMs } from "./retry.js";
import type { QuotaPolicy, UsageSink } from "./usage.js";
import type {
  CallOptions,
  CallPurpose,
  ChatEvent,
  ChatRequest,
  ChatResult,
  EmbedResult,
  ImageGenerationResult,
  LlmGateway,
  ModelInfo,
  Usage,
} from "./types.js";

export interface LlmGatewayOptions {
  config: LlmConfig;
  usage?: UsageSink;
  quota?: QuotaPolicy;
  /** Scripted answers for the offline model (`config.offlineFixture`, loaded by the caller). */
  offlineFixture?: MockFixture;
  /** Replaces `globalThis.fetch` for provider calls. */
  fetch?: FetchFunction;
  /** Replaces the backoff sleep (tests record the delays instead of waiting). */
  sleep?: Sleep;
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  clock?: () => number;
  /** The provider packages' warnings (an unsupported setting was dropped); never printed. */
  onWarning?: (message: string) => void;
  /** Bytes of one provider answer the gateway reads at most (default 32 MiB). */
  maxResponseBytes?: number;
}

type Endpoints = Pick<LlmConfig, "chat" | "sampling" | "embeddings" | "images">;

function endpointFor(config: Endpoints, purpose: CallPurpose): ModelEndpoint {
  if (purpose === "chat" || purpose === "agent") return config.chat;
  return config[purpose];
}

export function createLlmGateway(options: LlmGatewayOptions): LlmGateway {
  const { config } = options;
  routeSdkWarnings(options.onWarning);
  const fetch = boundedFetch(
    options.fetch ?? globalThis.fetch,
    options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  );
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    maxRetries: config.maxRetries,
  };
  const secrets = [config.chat, config.sampling, config.embeddings, config.images].map(
    (e) => e.apiKey,
  );
  const offline = { dimensions: config.embeddings.dimensions, fixture: options.offlineFixture };

  // Built on first use: a misconfigured images provider must not break chat.
  const chatBackends = new Map<ModelEndpoint, ChatBackend>();
  let embedBackend: EmbedBackend | undefined;
  let imageBackend: ImageBackend | undefined;

  const chatBackend = (purpose: CallPurpose): ChatBackend => {
    const endpoint = endpointFor(config, purpose);
    let backend = chatBackends.get(endpoint);
    if (backend === undefined) {
      backend =
        endpoint.provider === "offline"
          ? offlineChatBackend(offline)
          : aiSdkChatBackend(endpoint, fetch);
      chatBackends.set(endpoint, backend);
    }
    return backend;
  };
  const embeddings = (): EmbedBackend =>
    (embedBackend ??=
      config.embeddings.provider === "offline"
        ? offlineEmbedBackend(offline)
        : aiSdkEmbedBackend(config.embeddings, fetch));
  const images = (): ImageBackend =>
    (imageBackend ??=
      config.images.provider === "offline"
        ? offlineImageBackend()
        : aiSdkImageBackend(config.images, fetch));

  async function admit(call: CallOptions, provider: string): Promise<void> {
    const decision = await options.quota?.check(call.account, call.purpose);
    if (decision !== undefined && !decision.allowed) {
      throw new GatewayError("quota_exceeded", `quota exceeded: ${decision.reason}`, { provider });
    }
  }

  async function record(call: CallOptions, info: ModelInfo, usage: Usage, imageCount = 0) {
    await options.usage?.record({
      userId: call.account.userId,
      appId: call.account.appId,
      toolId: call.account.toolId,
      purpose: call.purpose,
      provider: info.provider,
      model: info.model,
      ...usage,
      images: imageCount,
      atMs: clock(),
    });
  }

  /** The caller's signal and the time budget, plus a local abort for consumers that stop early. */
  function callSignal(call: CallOptions) {
    const local = new AbortController();
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signals = [local.signal, timeout, ...(call.signal !== undefined ? [call.signal] : [])];
    return {
      signal: AbortSignal.any(signals),
      timedOut: () => timeout.aborted && call.signal?.aborted !== true,
      abort: () =>
        local.abort(
          new GatewayError("aborted", "the caller stopped reading", { provider: "gateway" }),
        ),
    };
  }

  /** Runs `attempt` with the retry policy; `attempt` reports whether output already left. */
  async function withRetries<T>(
    provider: string,
    call: CallOptions,
    bounds: ReturnType<typeof callSignal>,
    attempt: () => Promise<T>,
  ): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt();
      } catch (error) {
        const failure = toGatewayError(error, provider, secrets, {
          attempts: retry + 1,
          signal: call.signal,
          timedOut: bounds.timedOut(),
        });
        const delay = bounds.signal.aborted ? undefined : retryDelayMs(failure, retry, policy);
        if (delay === undefined) throw withAttempts(failure, retry + 1);
        try {
          await sleep(delay, bounds.signal);
        } catch (sleepError) {
          throw toGatewayError(sleepError, provider, secrets, {
            attempts: retry + 1,
            signal: call.signal,
            timedOut: bounds.timedOut(),
          });
        }
      }
    }
  }

  /** One non-streaming call: quota, time budget, retries, then the local abort released. */
  async function once<T>(
    provider: string,
    call: CallOptions,
    attempt: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    await admit(call, provider);
    const bounds = callSignal(call);
    try {
      return await withRetries(provider, call, bounds, () => attempt(bounds.signal));
    } finally {
      bounds.abort();
    }
  }

  return {
    async *streamChat(request: ChatRequest, call: CallOptions): AsyncIterable<ChatEvent> {
      const backend = chatBackend(call.purpose);
      await admit(call, backend.provider);
      const bounds = callSignal(call);
      // An attempt is retried only while nothing of it reached the caller: the retries wrap
      // the wait for the first event, never a stream already being read.
      try {
        const iterator = await withRetries(backend.provider, call, bounds, async () => {
          const it = backend.stream(request, bounds.signal)[Symbol.asyncIterator]();
          const first = await it.next();
          return { it, first };
        });
        let next = iterator.first;
        while (next.done !== true) {
          const event = next.value;
          if (event.type === "finish") await record(call, event, event.usage);
          yield event;
          try {
            next = await iterator.it.next();
          } catch (error) {
            throw toGatewayError(error, backend.provider, secrets, {
              signal: call.signal,
              timedOut: bounds.timedOut(),
            });
          }
        }
      } finally {
        // A consumer that stops reading (break, return, throw) cancels the provider request.
        bounds.abort();
      }
    },

    async complete(request, call): Promise<ChatResult> {
      const backend = chatBackend(call.purpose);
      const started = clock();
      const result = await once(backend.provider, call, (signal) =>
        backend.generate(request, signal),
      );
      await record(call, result, result.usage);
      return { ...result, latencyMs: clock() - started };
    },

    async embed(request, call): Promise<EmbedResult> {
      const backend = embeddings();
      const result = await once(backend.provider, call, (signal) =>
        backend.embed(request.values, signal),
      );
      const tokens = result.usage.inputTokens;
      await record(call, backend, { inputTokens: tokens, outputTokens: 0, totalTokens: tokens });
      return {
        provider: backend.provider,
        model: backend.model,
        vectors: result.vectors,
        dimensions: result.vectors[0]?.length ?? 0,
        usage: result.usage,
      };
    },

    async generateImage(request, call): Promise<ImageGenerationResult> {
      const backend = images();
      const made = await once(backend.provider, call, (signal) =>
        backend.generate(request, signal),
      );
      const noTokens = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
      await record(call, backend, noTokens, made.length);
      return { provider: backend.provider, model: backend.model, images: made };
    },

    async editImage(request, call): Promise<ImageGenerationResult> {
      const backend = images();
      const edit = backend.edit?.bind(backend);
      if (edit === undefined) {
        throw new GatewayError(
          "not_supported",
          `image editing is not supported by the ${backend.provider} images model; set the images provider to openai (ANNA_IMAGES_PROVIDER, or images.provider in the config file or the admin settings), whose /v1/images/edits edits images`,
          { provider: backend.provider },
        );
      }
      const made = await once(backend.provider, call, (signal) => edit(request, signal));
      const noTokens = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
      await record(call, backend, noTokens, made.length);
      return { provider: backend.provider, model: backend.model, images: made };
    },

    modelFor(purpose) {
      const endpoint = endpointFor(config, purpose);
      return {
        provider: endpoint.provider,
        model: endpoint.model ?? "",
        structuredOutput: endpoint.structuredOutput,
      };
    },
  };
}

function withAttempts(error: GatewayError, attempts: number): GatewayError {
  if (error.attempts === attempts) return error;
  return new GatewayError(error.code, error.message, {
    provider: error.provider,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    attempts,
    cause: error.cause,
  });
}
