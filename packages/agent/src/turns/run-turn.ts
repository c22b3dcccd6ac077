// The turn loop: model call (text streamed out as it comes) → the tool calls it asked for, run in
// parallel → their results appended as `tool` messages → the model again, until it answers
// without tools or the step limit is reached. Cancellation (the turn's signal) ends it at any
// point with `cancelled`. Every event of types.ts goes to `emit`, which is awaited, so a slow
// event log slows the turn instead of piling frames up in memory.
import { GatewayError } from "../gateway/gateway-error.js";
import type { ChatMessage, ChatTool, LlmGateway, ToolCall, Usage } from "../gateway/types.js";
import { MAX_TOOL_OUTPUT_BYTES } from "./bound-output.js";
import { DEFAULT_TOOL_TIMEOUT_MS, runToolCalls } from "./run-tools.js";
import type { AgentTool, AssembledPrompt, TurnEvent, TurnStatus } from "./types.js";

/** Model calls per turn unless the caller says otherwise. */
export const DEFAULT_MAX_STEPS = 8;

export interface RunTurnOptions {
  turnId: string;
  conversationId: string;
  userId: string;
  /** The app the turn is made in, for usage accounting. */
  appId?: string;
  prompt: AssembledPrompt;
  gateway: LlmGateway;
  /** Model calls at most (each followed by its tools); past it the turn ends as `step_limit`. */
  maxSteps?: number;
  signal: AbortSignal;
  emit: (event: TurnEvent) => Promise<void> | void;
  defaultToolTimeoutMs?: number;
  maxToolOutputBytes?: number;
  clock?: () => number;
}

export interface TurnOutcome {
  status: Exclude<TurnStatus, "running">;
  usage: Usage;
  /** Model calls made. */
  steps: number;
  error?: { code: string; message: string };
  /** What the turn added to the conversation (assistant and tool messages), in order. */
  messages: ChatMessage[];
}

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

export async function runTurn(options: RunTurnOptions): Promise<TurnOutcome> {
  const { prompt, gateway, signal, emit } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`maxSteps must be a whole number of at least 1 (got ${maxSteps})`);
  }
  const clock = options.clock ?? Date.now;
  const tools = toolMap(prompt.tools);
  const chatTools: ChatTool[] = prompt.tools.map(({ name, description, parameters }) => ({
    name,
    ...(description !== undefined ? { description } : {}),
    parameters,
  }));
  const added: ChatMessage[] = [];
  let usage = ZERO_USAGE;
  let steps = 0;

  const finish = async (
    status: TurnOutcome["status"],
    error?: TurnOutcome["error"],
  ): Promise<TurnOutcome> => {
    await emit({ type: "turn.finished", status, usage, ...(error ? { error } : {}) });
    return { status, usage, steps, messages: added, ...(error ? { error } : {}) };
  };

  await emit({
    type: "turn.started",
    turnId: options.turnId,
    conversationId: options.conversationId,
    activatedApps: prompt.activatedApps,
  });
  for (const message of prompt.notices) await emit({ type: "notice", message });

  try {
    while (steps < maxSteps) {
      if (signal.aborted) return await finish("cancelled");
      steps += 1;
      await emit({ type: "step.started", step: steps });
      let text = "";
      const calls: ToolCall[] = [];
      try {
        for await (const event of gateway.streamChat(
          {
            system: prompt.system,
            messages: [...prompt.messages, ...added],
            ...(chatTools.length > 0 ? { tools: chatTools } : {}),
          },
          {
            account: { userId: options.userId, ...(options.appId ? { appId: options.appId } : {}) },
            purpose: "chat",
            signal,
          },
        )) {
          if (event.type === "text-delta") {
            text += event.text;
            await emit({ type: "text.delta", text: event.text });
          } else if (event.type === "tool-call") {
            calls.push({ id: event.id, name: event.name, input: event.input });
          } else {
            usage = addUsage(usage, event.usage);
            await emit({
              type: "step.finished",
              step: steps,
              finishReason: event.finishReason,
              usage: event.usage,
            });
          }
        }
      } catch (err) {
        // What the model said before it was cut off stays in the conversation; its tool calls,
        // which will never get results, do not (providers refuse unanswered calls next turn).
        if (text !== "") added.push({ role: "assistant", content: text });
        if (signal.aborted) return await finish("cancelled");
        return await finish("failed", modelError(err));
      }
      added.push({
        role: "assistant",
        content: text,
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
      if (calls.length === 0) return await finish("completed");

      for (const call of calls) {
        await emit({
          type: "tool.call",
          callId: call.id,
          name: call.name,
          input: call.input,
          source: tools.get(call.name)?.source ?? { kind: "platform", family: "unknown" },
        });
      }
      const results = await runToolCalls(calls, {
        tools,
        context: {
          userId: options.userId,
          conversationId: options.conversationId,
          turnId: options.turnId,
        },
        signal,
        defaultTimeoutMs: options.defaultToolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
        maxOutputBytes: options.maxToolOutputBytes ?? MAX_TOOL_OUTPUT_BYTES,
        clock,
        onResult: (r) =>
          emit({
            type: "tool.result",
            callId: r.call.id,
            name: r.call.name,
            output: r.output,
            isError: r.isError,
            durationMs: r.durationMs,
          }),
      });
      // Every call gets its result message, cancelled ones included, so the history stays
      // valid for the provider on the next turn.
      for (const r of results) {
        added.push({
          role: "tool",
          toolCallId: r.call.id,
          toolName: r.call.name,
          output: r.output,
          ...(r.isError ? { isError: true } : {}),
        });
      }
      if (signal.aborted) return await finish("cancelled");
    }
    return await finish("step_limit", {
      code: "step_limit",
      message: `the model was still calling tools after ${maxSteps} steps, the limit for one turn; send another message to let it continue`,
    });
  } catch (err) {
    // `emit` itself failed (the event log is gone): nothing more can be streamed, so the
    // outcome carries the error and the caller records it.
    return {
      status: "failed",
      usage,
      steps,
      messages: added,
      error: {
        code: "internal",
        message: `the turn's events could not be recorded: ${String(err)}`,
      },
    };
  }
}

function toolMap(tools: readonly AgentTool[]): Map<string, AgentTool> {
  const map = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (map.has(tool.name)) {
      throw new Error(`two tools of this turn are named '${tool.name}'; tool names must be unique`);
    }
    map.set(tool.name, tool);
  }
  return map;
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

function modelError(err: unknown): { code: string; message: string } {
  if (err instanceof GatewayError) return { code: err.code, message: err.message };
  return { code: "model_error", message: `the model call failed: ${String(err)}` };
}
