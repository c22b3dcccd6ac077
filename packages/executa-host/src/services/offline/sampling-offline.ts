// Offline `sampling/createMessage` (T17–T20, R29–R30): `off` (`--no-sampling`) and `mock`
// (`--mock-sampling <fixture.jsonl>`, or no file for synthetic answers only).
//
// The router has already validated the params, folded snake_case into camelCase, refused
// `includeContext` ≠ "none" and `maxTokens` > 8192, and reserved the per-invoke call and token
// budgets. This service plays the model side: the responseFormat limits and `json_schema` gate
// (T18), stop sequences, `maxTokens` truncation, the model name and `usage` the token budget
// settles on. In mock mode the first fixture line that matches answers; with no match the answer
// is synthetic and deterministic: an echo of the last user message, or JSON that validates
// against the requested schema.
import type {
  SamplingCreateMessageResult,
  SamplingMessage,
  SamplingRequest,
} from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import type { SamplingGrant } from "../grants.js";
import type { SamplingService } from "../sampling-service.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import type { MockFixture } from "./mock-fixture.js";
import type { AppliedResponseFormat } from "./response-format.js";
import { applyResponseFormat, checkResponseFormat, responseFormatMeta } from "./response-format.js";
import { eventsText, fixtureRpcError } from "./sampling-fixture.js";
import { syntheticJson } from "./synthetic-json.js";
import { approxTokens, firstChars, truncateToTokens } from "./synthetic-tokens.js";

export type OfflineSamplingMode = "off" | "mock";

export interface OfflineSamplingOptions {
  mode: OfflineSamplingMode;
  /** Mock-answer file (`--mock-sampling`); without one every answer is synthetic. */
  fixture?: MockFixture;
  /** `--sampling-unsupported-format`: the model lacks `json_schema` support (T18). */
  unsupportedFormat?: boolean;
  /** Epoch ms. A call arriving after its invoke's deadline fails with -32005. */
  clock?: () => number;
}

/** The `message` of the `off` error, the name the harness reports (R30, R167). */
export const SAMPLING_DISABLED_MESSAGE = "sampling_disabled";
/** `_meta.provider` of every offline answer. */
export const MOCK_PROVIDER = "mock";
/** Prefix of the synthetic echo answer. */
export const SYNTHETIC_ECHO_PREFIX = "[mock] ";
/** Characters of the last user message the synthetic answer echoes. */
export const SYNTHETIC_ECHO_MAX_CHARS = 200;

export function createOfflineSamplingService(options: OfflineSamplingOptions): SamplingService {
  if (options.mode === "off") {
    return {
      createMessage: () =>
        Promise.reject(
          catalogError(SAMPLING_ERRORS.NOT_NEGOTIATED, SAMPLING_DISABLED_MESSAGE, {
            reason: "DISABLED",
            hint: "sampling is switched off on this host (--no-sampling); use --mock-sampling <fixture.jsonl> for offline answers",
          }),
        ),
    };
  }
  const clock = options.clock ?? Date.now;
  return {
    createMessage: (request, ctx) => {
      try {
        return Promise.resolve(answer(request, ctx, options, clock));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

/** `mock-<first model hint>`, `mock-default` without one (T19 has no offline catalogue). */
export function mockModelName(request: Pick<SamplingRequest, "modelPreferences">): string {
  const hint = request.modelPreferences?.hints?.find(
    (h) => typeof h.name === "string" && h.name.trim() !== "",
  )?.name;
  return `mock-${hint?.trim() ?? "default"}`;
}

function answer(
  request: SamplingRequest,
  ctx: ServiceContext<SamplingGrant>,
  options: OfflineSamplingOptions,
  clock: () => number,
): SamplingCreateMessageResult {
  if (ctx.signal.aborted) {
    throw catalogError(SAMPLING_ERRORS.TIMEOUT, "the invoke ended before the model answered", {
      reason: "ABORTED",
    });
  }
  if (Number.isFinite(ctx.deadlineMs) && ctx.deadlineMs > 0 && clock() > ctx.deadlineMs) {
    throw catalogError(SAMPLING_ERRORS.TIMEOUT, "the invoke's deadline passed before the call", {
      deadlineMs: ctx.deadlineMs,
    });
  }
  const model = mockModelName(request);
  checkResponseFormat(request.responseFormat);
  const format = applyResponseFormat(request.responseFormat, request.onUnsupported, {
    name: model,
    supportsJsonSchema: options.unsupportedFormat !== true,
  });

  const entry = options.fixture?.find("sampling/createMessage", request);
  if (entry?.error !== undefined) throw fixtureRpcError(entry.error, "sampling");
  if (entry?.result !== undefined) return fromFixtureResult(entry.result, request, model, format);
  const text =
    entry?.events !== undefined ? eventsText(entry.events) : syntheticText(request, format);
  return build(text, request, model, format);
}

/** The text of a message: a string, one block or a list of blocks (text blocks only). */
export function messageText(message: SamplingMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("");
}

function promptText(request: SamplingRequest): string {
  const parts = request.systemPrompt !== undefined ? [request.systemPrompt] : [];
  for (const message of request.messages) parts.push(messageText(message));
  return parts.join("\n");
}

function lastUserText(request: SamplingRequest): string {
  const messages = request.messages;
  const last = [...messages].reverse().find((m) => m.role === "user") ?? messages.at(-1);
  return last === undefined ? "" : messageText(last);
}

/**
 * No fixture line: an echo for text, a JSON value for JSON modes. A `json_schema` downgraded to
 * `json_object` still gets schema-shaped JSON, since the prompt of such a call describes the
 * shape and a JSON-mode model usually follows it (D-host-82).
 */
function syntheticText(
  request: SamplingRequest,
  format: AppliedResponseFormat | undefined,
): string {
  const echo = SYNTHETIC_ECHO_PREFIX + firstChars(lastUserText(request), SYNTHETIC_ECHO_MAX_CHARS);
  if (format === undefined || format.applied === null || format.applied === "text") return echo;
  if (format.schema !== undefined) return JSON.stringify(syntheticJson(format.schema));
  return JSON.stringify({ mock: true, reply: echo });
}

/** Stop sequences first (the model stops there), then the `maxTokens` cut. */
function build(
  fullText: string,
  request: SamplingRequest,
  model: string,
  format: AppliedResponseFormat | undefined,
): SamplingCreateMessageResult {
  let text = fullText;
  let stopReason = "endTurn";
  const stop = firstStop(text, request.stopSequences);
  if (stop !== undefined) {
    text = text.slice(0, stop);
    stopReason = "stopSequence";
  }
  const cut = truncateToTokens(text, request.maxTokens);
  if (cut.truncated) {
    text = cut.text;
    stopReason = "maxTokens";
  }
  const inputTokens = approxTokens(promptText(request));
  const outputTokens = approxTokens(text);
  return {
    role: "assistant",
    content: { type: "text", text },
    model,
    stopReason,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    _meta: {
      provider: MOCK_PROVIDER,
      latencyMs: 0,
      ...(format !== undefined ? { responseFormat: responseFormatMeta(format, text) } : {}),
    },
  };
}

function firstStop(text: string, stopSequences: readonly string[] | undefined): number | undefined {
  let first: number | undefined;
  for (const sequence of stopSequences ?? []) {
    if (sequence === "") continue;
    const at = text.indexOf(sequence);
    if (at >= 0 && (first === undefined || at < first)) first = at;
  }
  return first;
}

/**
 * A fixture `result` is returned as written; only what plugins read and the router counts is
 * filled in when missing: `role`, `content` (from a top-level `text`), `model`, `stopReason`,
 * `usage` (each counter), and `_meta.responseFormat` when a format was requested (T20: the
 * harness synthesises it in mock mode). A bare string result is the answer's text.
 */
function fromFixtureResult(
  result: unknown,
  request: SamplingRequest,
  model: string,
  format: AppliedResponseFormat | undefined,
): SamplingCreateMessageResult {
  if (typeof result === "string") return build(result, request, model, format);
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    return result as SamplingCreateMessageResult;
  }
  const out = structuredClone(result) as Record<string, unknown>;
  out["role"] ??= "assistant";
  if (out["content"] === undefined && typeof out["text"] === "string") {
    out["content"] = { type: "text", text: out["text"] };
  }
  out["model"] ??= model;
  out["stopReason"] ??= "endTurn";
  const text = contentText(out["content"]);
  const usage =
    out["usage"] !== null && typeof out["usage"] === "object" && !Array.isArray(out["usage"])
      ? (out["usage"] as Record<string, unknown>)
      : {};
  const inputTokens = counter(usage["inputTokens"]) ?? approxTokens(promptText(request));
  const outputTokens = counter(usage["outputTokens"]) ?? approxTokens(text ?? "");
  out["usage"] = {
    ...usage,
    inputTokens,
    outputTokens,
    totalTokens: counter(usage["totalTokens"]) ?? inputTokens + outputTokens,
  };
  if (format !== undefined) {
    const meta =
      out["_meta"] !== null && typeof out["_meta"] === "object" && !Array.isArray(out["_meta"])
        ? (out["_meta"] as Record<string, unknown>)
        : {};
    out["_meta"] = {
      ...meta,
      responseFormat: meta["responseFormat"] ?? responseFormatMeta(format, text),
    };
  }
  return out as SamplingCreateMessageResult;
}

function counter(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks
    .map((b) =>
      b !== null && typeof b === "object" ? (b as Record<string, unknown>)["text"] : undefined,
    )
    .filter((t): t is string => typeof t === "string");
  return texts.length > 0 ? texts.join("") : undefined;
}
