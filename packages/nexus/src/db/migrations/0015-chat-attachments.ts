import type { Kysely } from "kysely";

// Files a user attached to a chat conversation (schema-chat.ts): the row names the bytes in the
// blob store, which count against the user's storage quota. `turn_id` is set when a turn sends
// the attachment (once: a sent attachment belongs to that user message); until then it is
// pending in the composer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chat_attachments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("chat_conversations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("turn_id", "text", (c) => c.references("chat_turns.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("media_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // A turn's prompt lists the conversation's sent attachments; uploads count pending ones.
  await db.schema
    .createIndex("chat_attachments_conversation")
    .on("chat_attachments")
    .columns(["conversation_id", "created_at"])
    .execute();
}
