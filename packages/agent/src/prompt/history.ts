// The conversation the model sees, bounded by characters (the only measure a pure function has
// without a tokenizer). The oldest messages go first; a turn is never cut between an assistant's
// tool calls and their results, since providers reject a tool result without its call.

import type { ChatMessage } from "../gateway/types.js";

export function trimHistory(
  history: readonly ChatMessage[],
  maxChars: number,
): { kept: ChatMessage[]; dropped: number } {
  const sizes = history.map(messageChars);
  let total = sizes.reduce((a, b) => a + b, 0);
  let start = 0;
  while (start < history.length && (total > maxChars || history[start]?.role === "tool")) {
    total -= sizes[start] ?? 0;
    start++;
  }
  return { kept: history.slice(start), dropped: start };
}

function messageChars(message: ChatMessage): number {
  switch (message.role) {
    case "tool":
      return JSON.stringify(message.output ?? null).length;
    case "assistant":
      return message.content.length + JSON.stringify(message.toolCalls ?? []).length;
    default:
      return message.content.length;
  }
}
