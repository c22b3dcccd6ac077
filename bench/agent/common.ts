// What every bench/agent piece shares: the fake provider (real HTTP on 127.0.0.1, the OpenAI
// Chat Completions wire), our gateway pointed at it, and the baseline: the same provider package
// with the same settings, called straight through the AI SDK's `streamText`.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type AssembledPrompt,
  type ChatMessage,
  createLlmGateway,
  type LlmGateway,
  parseLlmConfig,
  runTurn,
  type TurnEvent,
} from "@anna-ai/agent";
import { type ModelMessage, streamText, type ToolSet } from "ai";

export const BENCH_MODEL = "bench-model";
export const BENCH_KEY = "sk-bench-0123456789";
export const SYSTEM = "You are a benchmark. Answer briefly.";
export const USER_TEXT = "What is on my list today?";

/** Our gateway as Nexus configures it for an OpenAI-compatible server, without retries. */
export function benchGateway(baseUrl: string): LlmGateway {
  return createLlmGateway({
    config: parseLlmConfig({
      provider: "openai-compatible",
      baseUrl,
      model: BENCH_MODEL,
      apiKey: BENCH_KEY,
      maxRetries: 0,
    }),
  });
}

/** The baseline's model: what the gateway builds for the endpoint (src/gateway/providers.ts). */
export function directModel(baseUrl: string) {
  return createOpenAICompatible({
    name: "openai-compatible",
    baseURL: baseUrl,
    apiKey: BENCH_KEY,
    includeUsage: true,
  }).chatModel(BENCH_MODEL);
}

export type DirectModel = ReturnType<typeof directModel>;

/** A one-message turn's prompt, with the given tools. */
export function benchPrompt(tools: AssembledPrompt["tools"] = []): AssembledPrompt {
  const messages: ChatMessage[] = [{ role: "user", content: USER_TEXT }];
  return { system: SYSTEM, messages, tools, activatedApps: [], notices: [] };
}

export interface DirectStep {
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
}

/** One model call as a hand-written program makes it: `streamText`, read the full stream. */
export async function directStep(
  model: DirectModel,
  messages: ModelMessage[],
  tools?: ToolSet,
): Promise<DirectStep> {
  const result = streamText({
    model,
    system: SYSTEM,
    messages,
    ...(tools ? { tools } : {}),
    maxRetries: 0,
    onError: () => undefined,
  });
  const step: DirectStep = { text: "", toolCalls: [] };
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") step.text += part.text;
    else if (part.type === "tool-call") {
      step.toolCalls.push({
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
      });
    } else if (part.type === "error") throw part.error;
  }
  return step;
}

export const USER_MESSAGES: ModelMessage[] = [{ role: "user", content: USER_TEXT }];

/** A turn's own checks: a bench that measured failed turns would measure nothing. */
export function expectCompleted(what: string, status: string, error?: { message: string }): void {
  if (status !== "completed") {
    throw new Error(
      `${what} ended ${status}${error ? `: ${error.message}` : ""}; the bench needs completed turns`,
    );
  }
}

/**
 * One turn through `runTurn` as every piece runs it: fixed conversation and user, a fresh
 * signal; `keepEvents` holds every event in memory as a client's reader would, else drops them.
 */
export async function benchTurn(
  gateway: LlmGateway,
  prompt: AssembledPrompt,
  turnId: string,
  keepEvents: boolean,
): ReturnType<typeof runTurn> {
  const events: TurnEvent[] = [];
  return runTurn({
    turnId,
    conversationId: "c1",
    userId: "u1",
    prompt,
    gateway,
    signal: new AbortController().signal,
    emit: keepEvents
      ? (e) => {
          events.push(e);
        }
      : () => undefined,
  });
}
