// The offline model: deterministic, no network, honestly labelled (provider and model id are
// both "offline"). It answers from a JSONL fixture in the dev tools' `--mock-*` format
// (`{"ns":"llm","method":"complete","match":{…},"result":…}`, docs/mocks.md), and otherwise with
// a fallback that says no model is configured and how to configure one. A JSON response format
// gets JSON: schema-shaped when a schema was asked for, so structured-output callers keep working.
//
// A fixture `result` is the answer's text (a string), or an object with `text` (or
// `content.text`), `toolCalls: [{id?, name, args}]`, `finishReason` and `usage`. An `events` line
// streams each event's text as one delta. An `error` line fails the call like a provider error;
// `error.data.status` (e.g. 429) and `error.data.retryAfterMs` make it a rate limit.
import {
  approxTokens,
  eventsText,
  solidPng,
  syntheticEmbedding,
  syntheticJson,
  truncateToTokens,
} from "@anna-ai/executa-host";
import type { MockEntry, MockFixture } from "@anna-ai/executa-host";
import { OFFLINE_MODEL_ID } from "../config/llm-config.js";
import type { ChatBackend, EmbedBackend, ImageBackend } from "../gateway/backend.js";
import { GatewayError } from "../gateway/gateway-error.js";
import type {
  ChatEvent,
  ChatRequest,
  ChatResult,
  FinishReason,
  ToolCall,
} from "../gateway/types.js";

export const OFFLINE_PROVIDER = "offline";

/** What the offline model says when no fixture line answers. */
export const OFFLINE_FALLBACK_TEXT =
  "No language model is configured on this server, so this answer comes from Anna's offline model and is not AI-generated. " +
  "To connect a real model, set ANNA_LLM_PROVIDER (openai, anthropic or openai-compatible), ANNA_LLM_MODEL and ANNA_LLM_API_KEY, " +
  "plus ANNA_LLM_BASE_URL for a local server such as Ollama, vLLM or llama.cpp; see docs/agent.md.";

export interface OfflineBackendOptions {
  fixture?: MockFixture;
  /** Dimensions of offline embeddings (the alias's). */
  dimensions: number;
}

type Answer = Omit<ChatResult, "latencyMs" | "provider" | "model"> & { chunks: string[] };

const INFO = { provider: OFFLINE_PROVIDER, model: OFFLINE_MODEL_ID };

export function offlineChatBackend(options: OfflineBackendOptions): ChatBackend {
  return {
    ...INFO,
    async *stream(request, signal): AsyncIterable<ChatEvent> {
      const answer = answerFor(request, options.fixture);
      for (const text of answer.chunks) {
        if (signal.aborted) throw signal.reason as Error;
        yield { type: "text-delta", text };
      }
      for (const call of answer.toolCalls) yield { type: "tool-call", ...call };
      yield {
        type: "finish",
        finishReason: answer.finishReason,
        rawFinishReason: answer.rawFinishReason,
        usage: answer.usage,
        ...INFO,
      };
    },
    generate(request, signal) {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      try {
        const { chunks: _chunks, ...answer } = answerFor(request, options.fixture);
        return Promise.resolve({ ...answer, ...INFO });
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

export function offlineEmbedBackend(options: OfflineBackendOptions): EmbedBackend {
  return {
    ...INFO,
    embed(values) {
      return Promise.resolve({
        vectors: values.map((v) => syntheticEmbedding(v, OFFLINE_MODEL_ID, options.dimensions)),
        usage: { inputTokens: values.reduce((sum, v) => sum + approxTokens(v), 0) },
      });
    },
  };
}

/** Side of the offline images; they are solid colour, drawn from a hash of the prompt. */
const OFFLINE_IMAGE_SIDE_PX = 64;

export function offlineImageBackend(): ImageBackend {
  return {
    ...INFO,
    generate(request) {
      const images = Array.from({ length: request.n }, (_, i) => {
        const [r = 0, g = 0, b = 0] = syntheticEmbedding(
          `${request.prompt}#${i}`,
          "offline-image",
          3,
        ).map((c) => Math.round((c + 1) * 127.5));
        return {
          base64: solidPng(OFFLINE_IMAGE_SIDE_PX, OFFLINE_IMAGE_SIDE_PX, { r, g, b }).toString(
            "base64",
          ),
          mediaType: "image/png",
        };
      });
      return Promise.resolve(images);
    },
  };
}

/** The fixture's view of a request: what `match` rules look at. */
function matchView(request: ChatRequest) {
  return {
    messages: request.messages,
    ...(request.system !== undefined ? { systemPrompt: request.system } : {}),
    ...(request.tools !== undefined ? { tools: request.tools.map((t) => t.name) } : {}),
    ...(request.responseFormat !== undefined ? { responseFormat: request.responseFormat } : {}),
  };
}

function answerFor(request: ChatRequest, fixture: MockFixture | undefined): Answer {
  const entry = fixture?.find("sampling/createMessage", matchView(request));
  if (entry?.error !== undefined) throw scriptedError(entry, fixture?.file ?? "fixture");
  let chunks: string[];
  let toolCalls: ToolCall[] = [];
  let scripted: Record<string, unknown> = {};
  if (entry?.events !== undefined) {
    chunks = entry.events.map((e) => eventsText([e])).filter((t) => t !== "");
  } else if (entry?.result !== undefined) {
    scripted =
      typeof entry.result === "object" && entry.result !== null
        ? (entry.result as Record<string, unknown>)
        : {};
    const text = typeof entry.result === "string" ? entry.result : resultText(scripted);
    chunks = words(text);
    toolCalls = readToolCalls(scripted["toolCalls"], entry.line);
  } else {
    chunks = words(fallbackText(request));
  }
  return finish(request, chunks, toolCalls, scripted);
}

function fallbackText(request: ChatRequest): string {
  const format = request.responseFormat;
  if (format === undefined) return OFFLINE_FALLBACK_TEXT;
  if (format.schema !== undefined) return JSON.stringify(syntheticJson(format.schema));
  return JSON.stringify({ offline: true, message: OFFLINE_FALLBACK_TEXT });
}

/** Stop sequences, then `maxTokens` (4 characters a token), as a model would. */
function finish(
  request: ChatRequest,
  chunks: string[],
  toolCalls: ToolCall[],
  scripted: Record<string, unknown>,
): Answer {
  let text = chunks.join("");
  let reason: FinishReason = toolCalls.length > 0 ? "tool-calls" : "stop";
  let raw: string | undefined;
  const stop = firstStop(text, request.stopSequences);
  if (stop !== undefined) {
    text = text.slice(0, stop);
    raw = "stop_sequence";
  }
  if (request.maxTokens !== undefined) {
    const cut = truncateToTokens(text, request.maxTokens);
    if (cut.truncated) {
      text = cut.text;
      reason = "length";
    }
  }
  if (typeof scripted["finishReason"] === "string")
    reason = scripted["finishReason"] as FinishReason;
  const prompt = [
    request.system ?? "",
    ...request.messages.map((m) => ("content" in m ? m.content : JSON.stringify(m.output))),
  ].join("\n");
  const usage = scripted["usage"] as
    Partial<Record<"inputTokens" | "outputTokens", number>> | undefined;
  const inputTokens = usage?.inputTokens ?? approxTokens(prompt);
  const outputTokens = usage?.outputTokens ?? approxTokens(text);
  return {
    text,
    chunks: text === chunks.join("") ? chunks : words(text),
    toolCalls,
    finishReason: reason,
    rawFinishReason: raw,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
}

function firstStop(text: string, stops: readonly string[] | undefined): number | undefined {
  let first: number | undefined;
  for (const s of stops ?? []) {
    const at = s === "" ? -1 : text.indexOf(s);
    if (at >= 0 && (first === undefined || at < first)) first = at;
  }
  return first;
}

/** Deltas of a word and its following space, like a tokenizer would stream. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function resultText(result: Record<string, unknown>): string {
  if (typeof result["text"] === "string") return result["text"];
  const content = result["content"];
  if (typeof content === "string") return content;
  if (
    content !== null &&
    typeof content === "object" &&
    typeof (content as { text?: unknown }).text === "string"
  ) {
    return (content as { text: string }).text;
  }
  return "";
}

function readToolCalls(value: unknown, line: number): ToolCall[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new GatewayError(
      "invalid_request",
      `offline fixture line ${line}: "toolCalls" must be a list of {name, args}`,
      {
        provider: OFFLINE_PROVIDER,
      },
    );
  }
  return value.map((raw: unknown, index) => {
    const call = (raw ?? {}) as Record<string, unknown>;
    if (typeof call["name"] !== "string") {
      throw new GatewayError(
        "invalid_request",
        `offline fixture line ${line}: toolCalls[${index}].name must be a string`,
        {
          provider: OFFLINE_PROVIDER,
        },
      );
    }
    return {
      id: typeof call["id"] === "string" ? call["id"] : `offline_call_${line}_${index}`,
      name: call["name"],
      input: call["args"] ?? call["arguments"] ?? call["input"] ?? {},
    };
  });
}

function scriptedError(entry: MockEntry, file: string): GatewayError {
  const error = entry.error as NonNullable<MockEntry["error"]>;
  const data = (error.data ?? {}) as Record<string, unknown>;
  const status = typeof data["status"] === "number" ? data["status"] : undefined;
  const retryAfterMs = typeof data["retryAfterMs"] === "number" ? data["retryAfterMs"] : undefined;
  return new GatewayError(
    status === 429 ? "rate_limited" : "provider_error",
    `offline model (${file}:${entry.line}): ${error.message}`,
    {
      provider: OFFLINE_PROVIDER,
      ...(status !== undefined ? { status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
  );
}
