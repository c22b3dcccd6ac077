// Tables of chat turns (migration 0010): conversations, their messages, turns and each turn's
// event frames. Same conventions as schema.ts (epoch ms, JSON as text); users by `users.id`.
import type { Generated } from "kysely";

export interface ChatConversationsTable {
  /** A random UUID. */
  id: string;
  user_id: number;
  title: string | null;
  created_at: number;
  updated_at: number;
}

export type ChatTurnStatusColumn = "running" | "completed" | "cancelled" | "failed" | "step_limit";

export interface ChatTurnsTable {
  /** A random UUID. */
  id: string;
  conversation_id: string;
  user_id: number;
  status: ChatTurnStatusColumn;
  error_code: string | null;
  error_message: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  total_tokens: Generated<number>;
  step_count: Generated<number>;
  started_at: number;
  finished_at: number | null;
  /** Migration 0018: the id of the node running it (null on older rows). */
  runner: string | null;
  /** Migration 0018: when the runner last said it still runs the turn. */
  heartbeat_at: number | null;
  /** Migration 0018: a cancel asked on another node than the runner. */
  cancel_requested_at: number | null;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: string;
  turn_id: string;
  /** Position in the conversation, from 1. */
  seq: number;
  role: "user" | "assistant" | "tool";
  /** JSON: `{text}` for user and assistant, `{toolCallId, toolName, output, isError}` for tool. */
  content: string;
  /** JSON `[{id, name, input}]` on an assistant message that called tools. */
  tool_calls: string | null;
  created_at: number;
}

export interface ChatTurnEventsTable {
  turn_id: string;
  seq: number;
  /** JSON of one TurnEvent. */
  frame: string;
  created_at: number;
}

/** A file attached to a conversation (migration 0015); its bytes are in the blob store. */
export interface ChatAttachmentsTable {
  /** A random UUID. */
  id: string;
  conversation_id: string;
  user_id: number;
  /** The turn that sent it; null while it waits in the composer. */
  turn_id: string | null;
  name: string;
  media_type: string;
  size_bytes: number;
  blob_key: string;
  created_at: number;
}

export interface ChatTables {
  chat_conversations: ChatConversationsTable;
  chat_turns: ChatTurnsTable;
  chat_messages: ChatMessagesTable;
  chat_turn_events: ChatTurnEventsTable;
  chat_attachments: ChatAttachmentsTable;
}
