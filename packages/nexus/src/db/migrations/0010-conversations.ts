import { type Kysely, sql } from "kysely";
import { idColumn } from "../id-column.js";

// Chat turns (schema-chat.ts): a user's conversations, their messages (user, assistant with its
// tool calls, tool results), the turns that produced them, and each turn's event frames, the
// SSE stream a client resumes from. Not the app runtime's Host API chat records (0004).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chat_conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  // A user's conversations page newest first by (created_at, id).
  await db.schema
    .createIndex("chat_conversations_user_created")
    .on("chat_conversations")
    .columns(["user_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("chat_turns")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("chat_conversations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("output_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("total_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("step_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema
    .createIndex("chat_turns_conversation")
    .on("chat_turns")
    .columns(["conversation_id", "started_at"])
    .execute();
  // One running turn per conversation, enforced by the database so two servers (or two
  // requests) cannot both start one. Both dialects have partial indexes.
  await sql`create unique index chat_turns_one_running on chat_turns (conversation_id) where status = 'running'`.execute(
    db,
  );
  // Recovery at start finds the turns left running.
  await db.schema.createIndex("chat_turns_status").on("chat_turns").column("status").execute();

  await idColumn(db, db.schema.createTable("chat_messages"))
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("chat_conversations.id").onDelete("cascade"),
    )
    .addColumn("turn_id", "text", (c) =>
      c.notNull().references("chat_turns.id").onDelete("cascade"),
    )
    // Position in the conversation, from 1.
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    // JSON: the message without its role and tool calls (text, or a tool's result).
    .addColumn("content", "text", (c) => c.notNull())
    // JSON array of `{id, name, input}` on assistant messages that called tools; else NULL.
    .addColumn("tool_calls", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("chat_messages_conversation_seq", ["conversation_id", "seq"])
    .execute();

  await db.schema
    .createTable("chat_turn_events")
    .addColumn("turn_id", "text", (c) =>
      c.notNull().references("chat_turns.id").onDelete("cascade"),
    )
    .addColumn("seq", "integer", (c) => c.notNull())
    // JSON of one TurnEvent (@anna-ai/agent).
    .addColumn("frame", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("chat_turn_events_pk", ["turn_id", "seq"])
    .execute();
}
