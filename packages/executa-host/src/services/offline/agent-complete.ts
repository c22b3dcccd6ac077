// The synthetic `agent/complete` answer: the MCP completion shape of sampling and the App
// `llm.complete` (R37), with a deterministic echo of the last user message, cut at `maxTokens`.
import type { AgentCompleteParams, AgentCompleteResult } from "@anna-ai/app-schema";
import { AGENT_MOCK_MODEL, echoOf, estimateTokens, tokenize } from "./agent-frames.js";

/** The readable text of one message's content: a string, a text block or a list of blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map(contentText)
      .filter((t) => t !== "")
      .join("\n");
  if (content !== null && typeof content === "object") {
    const text = (content as Record<string, unknown>)["text"];
    return typeof text === "string" ? text : "";
  }
  return "";
}

export function syntheticCompletion(params: AgentCompleteParams): AgentCompleteResult {
  const messages = params.messages;
  const lastUser = [...messages].reverse().find((m) => m.role === "user") ?? messages.at(-1);
  const prompt = contentText(lastUser?.content);
  const full = `Mock completion: ${echoOf(prompt)}`;
  const maxTokens = params.maxTokens ?? params.max_tokens ?? undefined;

  let text = full;
  let stopReason = "endTurn";
  if (maxTokens !== undefined && estimateTokens(full) > maxTokens) {
    // Whole words while they fit the budget, so the cut is stable and readable.
    text = "";
    for (const token of tokenize(full)) {
      if (estimateTokens(text + token) > maxTokens) break;
      text += token;
    }
    stopReason = "maxTokens";
  }
  const system = params.systemPrompt ?? params.system_prompt ?? "";
  const inputTokens =
    estimateTokens(system) +
    messages.reduce((sum, m) => sum + estimateTokens(contentText(m.content)), 0);
  const outputTokens = estimateTokens(text);
  return {
    role: "assistant",
    content: { type: "text", text },
    model: AGENT_MOCK_MODEL,
    stopReason,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
}
