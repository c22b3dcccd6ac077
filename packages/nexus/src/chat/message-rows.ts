// Messages between the agent's `ChatMessage` and the `chat_messages` row, and the row as the
// HTTP API shows it. `content` holds what the role carries (a user message also the attachments
// it sent), `tool_calls` the assistant's calls.
import type { ChatMessage, ToolCall } from "@anna-ai/agent";
import type { Selectable } from "kysely";
import type { ChatMessagesTable } from "../db/schema-chat.js";
import type { AttachmentView } from "./chat-attachments.js";

type Row = Selectable<ChatMessagesTable>;

export function messageColumns(message: ChatMessage): Pick<Row, "role" | "content" | "tool_calls"> {
  switch (message.role) {
    case "user":
      return { role: "user", content: JSON.stringify({ text: message.content }), tool_calls: null };
    case "assistant":
      return {
        role: "assistant",
        content: JSON.stringify({ text: message.content }),
        tool_calls:
          message.toolCalls !== undefined && message.toolCalls.length > 0
            ? JSON.stringify(message.toolCalls)
            : null,
      };
    case "tool":
      return {
        role: "tool",
        content: JSON.stringify({
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.output ?? null,
          isError: message.isError === true,
        }),
        tool_calls: null,
      };
    case "system":
      throw new Error(
        "system prompts are not stored with a conversation; they are assembled per turn",
      );
  }
}

/** The user message of a turn, with the attachments it sent (shown by `messageView`). */
export function userMessageColumns(
  text: string,
  attachments: readonly AttachmentView[],
): Pick<Row, "role" | "content" | "tool_calls"> {
  if (attachments.length === 0) return messageColumns({ role: "user", content: text });
  return { role: "user", content: JSON.stringify({ text, attachments }), tool_calls: null };
}

interface ToolContent {
  toolCallId: string;
  toolName: string;
  output: unknown;
  isError: boolean;
}

export function messageOf(row: Pick<Row, "role" | "content" | "tool_calls">): ChatMessage {
  if (row.role === "tool") {
    const c = JSON.parse(row.content) as ToolContent;
    return {
      role: "tool",
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      output: c.output,
      ...(c.isError ? { isError: true } : {}),
    };
  }
  const { text } = JSON.parse(row.content) as { text: string };
  if (row.role === "user") return { role: "user", content: text };
  const toolCalls =
    row.tool_calls === null ? undefined : (JSON.parse(row.tool_calls) as ToolCall[]);
  return { role: "assistant", content: text, ...(toolCalls ? { toolCalls } : {}) };
}

/** A message as `GET /api/v1/chat/conversations/{id}` lists it (snake_case, like the rest). */
export function messageView(row: Row): Record<string, unknown> {
  const m = messageOf(row);
  const base = { seq: row.seq, turn_id: row.turn_id, role: m.role, created_at: row.created_at };
  if (m.role === "tool") {
    return {
      ...base,
      tool_call_id: m.toolCallId,
      tool_name: m.toolName,
      output: m.output,
      is_error: m.isError === true,
    };
  }
  if (m.role === "assistant") {
    return {
      ...base,
      text: m.content,
      tool_calls: (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: c.input })),
    };
  }
  if (m.role === "user") {
    const { attachments } = JSON.parse(row.content) as { attachments?: AttachmentView[] };
    return { ...base, text: m.content, attachments: attachments ?? [] };
  }
  return { ...base, text: "" };
}
