// `sampling/createMessage` served by a real model through the gateway (T17–T20, R29–R30). The
// router has validated the params, refused `includeContext` ≠ "none" and `maxTokens` > 8192, and
// reserved the per-invoke call and token budgets; this service does what the offline one does on
// the model side (the same responseFormat checks and gate, the same codes) against the model
// configured for the sampling purpose, and settles `usage` for the token budget.
import type { SamplingCreateMessageResult, SamplingRequest } from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import {
  applyResponseFormat,
  catalogError,
  checkResponseFormat,
  messageText,
  responseFormatMeta,
} from "@anna-ai/executa-host";
import type { AppliedResponseFormat, SamplingService } from "@anna-ai/executa-host";
import type { ChatMessage, ChatRequest, ChatResult, LlmGateway } from "../gateway/types.js";
import { familyError } from "./family-error.js";

/** What the host substitutes for a null temperature (R29). */
export const SAMPLING_DEFAULT_TEMPERATURE = 0.7;
/** The model's time budget: the SDK's `_clientTimeoutS`, clamped (R29); 90 s without one. */
export const SAMPLING_DEFAULT_TIMEOUT_S = 90;
export const SAMPLING_MIN_TIMEOUT_S = 30;
export const SAMPLING_MAX_TIMEOUT_S = 300;

export interface GatewaySamplingOptions {
  gateway: LlmGateway;
  /** Epoch ms. A call arriving after its invoke's deadline fails with -32005. */
  clock?: () => number;
}

export function createGatewaySamplingService(options: GatewaySamplingOptions): SamplingService {
  const { gateway } = options;
  const clock = options.clock ?? Date.now;
  return {
    async createMessage(request, ctx) {
      if (ctx.signal.aborted) {
        throw catalogError(SAMPLING_ERRORS.TIMEOUT, "the invoke ended before the model answered", {
          reason: "ABORTED",
        });
      }
      const now = clock();
      const hasDeadline = Number.isFinite(ctx.deadlineMs) && ctx.deadlineMs > 0;
      if (hasDeadline && now > ctx.deadlineMs) {
        throw catalogError(
          SAMPLING_ERRORS.TIMEOUT,
          "the invoke's deadline passed before the call",
          {
            deadlineMs: ctx.deadlineMs,
          },
        );
      }
      const model = gateway.modelFor("sampling");
      checkResponseFormat(request.responseFormat);
      const format = applyResponseFormat(request.responseFormat, request.onUnsupported, {
        name: model.model,
        supportsJsonSchema: model.structuredOutput,
      });
      const budgetMs = Math.min(
        timeoutS(request) * 1000,
        hasDeadline ? Math.max(0, ctx.deadlineMs - now) : Number.POSITIVE_INFINITY,
      );
      const budget = AbortSignal.timeout(Math.max(1, budgetMs));
      let result: ChatResult;
      try {
        result = await gateway.complete(chatRequest(request, format), {
          account: {
            userId: ctx.userId,
            toolId: ctx.toolId,
            ...(ctx.app !== undefined ? { appId: ctx.app.appId } : {}),
          },
          purpose: "sampling",
          signal: AbortSignal.any([ctx.signal, budget]),
        });
      } catch (error) {
        if (budget.aborted && !ctx.signal.aborted) {
          throw catalogError(
            SAMPLING_ERRORS.TIMEOUT,
            `${model.provider} model ${model.model} did not answer within ${Math.round(budgetMs)} ms (the invoke's deadline or the ${timeoutS(request)} s sampling budget)`,
            { reason: "timeout", provider: model.provider, budgetMs: Math.round(budgetMs) },
          );
        }
        throw familyError(error, SAMPLING_ERRORS);
      }
      return toSamplingResult(result, format);
    },
  };
}

function timeoutS(request: SamplingRequest): number {
  const asked = request.clientTimeoutS ?? SAMPLING_DEFAULT_TIMEOUT_S;
  return Math.min(SAMPLING_MAX_TIMEOUT_S, Math.max(SAMPLING_MIN_TIMEOUT_S, asked));
}

/**
 * `systemPrompt` and any `system`-role messages become the one system prompt, in that order:
 * providers take a single system prompt (Anthropic has no system role in its messages).
 */
export function chatRequest(
  request: SamplingRequest,
  format: AppliedResponseFormat | undefined,
): ChatRequest {
  const system: string[] = request.systemPrompt !== undefined ? [request.systemPrompt] : [];
  const messages: ChatMessage[] = [];
  for (const message of request.messages) {
    const text = messageText(message);
    if (message.role === "system") system.push(text);
    else messages.push({ role: message.role, content: text });
  }
  return {
    messages,
    ...(system.length > 0 ? { system: system.join("\n\n") } : {}),
    maxTokens: request.maxTokens,
    temperature: request.temperature ?? SAMPLING_DEFAULT_TEMPERATURE,
    ...(request.stopSequences !== undefined ? { stopSequences: request.stopSequences } : {}),
    ...(format?.applied === "json_schema"
      ? { responseFormat: { type: "json", schema: format.schema ?? {}, name: schemaName(request) } }
      : format?.applied === "json_object"
        ? { responseFormat: { type: "json" } }
        : {}),
  };
}

function schemaName(request: SamplingRequest): string {
  const format = request.responseFormat;
  return format?.type === "json_schema" ? format.json_schema.name : "response";
}

/** MCP's stop reasons (T17): `endTurn`, `maxTokens`, `stopSequence`, `toolUse`. */
function stopReason(result: ChatResult): string {
  if (result.finishReason === "length") return "maxTokens";
  if (result.finishReason === "tool-calls") return "toolUse";
  if (result.rawFinishReason === "stop_sequence") return "stopSequence";
  return "endTurn";
}

function toSamplingResult(
  result: ChatResult,
  format: AppliedResponseFormat | undefined,
): SamplingCreateMessageResult {
  return {
    role: "assistant",
    content: { type: "text", text: result.text },
    model: result.model,
    stopReason: stopReason(result),
    usage: result.usage,
    _meta: {
      provider: result.provider,
      latencyMs: result.latencyMs,
      ...(format !== undefined ? { responseFormat: responseFormatMeta(format, result.text) } : {}),
    },
  };
}
