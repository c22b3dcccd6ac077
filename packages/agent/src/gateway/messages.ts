// The gateway's messages and tools in the AI SDK's shapes. Tools carry no `execute`: the SDK
// stops at the model's tool calls and hands them back; running them is the agent's job.
import { jsonSchema, tool } from "ai";
import type { ModelMessage, ToolChoice as SdkToolChoice, ToolSet } from "ai";
import type { JSONValue } from "ai";
import type { ChatMessage, ChatTool, FinishReason, ToolChoice, Usage } from "./types.js";
import type { LanguageModelUsage } from "ai";

export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant":
        if (message.toolCalls === undefined || message.toolCalls.length === 0) {
          return { role: "assistant", content: message.content };
        }
        return {
          role: "assistant",
          content: [
            ...(message.content !== "" ? [{ type: "text" as const, text: message.content }] : []),
            ...message.toolCalls.map((call) => ({
              type: "tool-call" as const,
              toolCallId: call.id,
              toolName: call.name,
              input: call.input,
            })),
          ],
        };
      case "tool":
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: toolOutput(message.output, message.isError === true),
            },
          ],
        };
    }
  });
}

function toolOutput(output: unknown, isError: boolean) {
  if (typeof output === "string") {
    return isError
      ? { type: "error-text" as const, value: output }
      : { type: "text" as const, value: output };
  }
  const value = (output ?? null) as JSONValue;
  return isError ? { type: "error-json" as const, value } : { type: "json" as const, value };
}

export function toToolSet(tools: readonly ChatTool[] | undefined): ToolSet | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.name] = tool({
      ...(t.description !== undefined ? { description: t.description } : {}),
      inputSchema: jsonSchema(t.parameters),
    });
  }
  return set;
}

export function toToolChoice(choice: ToolChoice | undefined): SdkToolChoice<ToolSet> | undefined {
  if (choice === undefined || typeof choice === "string") return choice;
  return { type: "tool", toolName: choice.tool };
}

const FINISH_REASONS: ReadonlySet<string> = new Set([
  "stop",
  "length",
  "tool-calls",
  "content-filter",
  "error",
]);

export function finishReason(reason: string): FinishReason {
  return FINISH_REASONS.has(reason) ? (reason as FinishReason) : "other";
}

export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage?.totalTokens ?? inputTokens + outputTokens,
  };
}
