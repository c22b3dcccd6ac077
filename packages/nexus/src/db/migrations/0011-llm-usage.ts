import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// The LLM gateway in Nexus (schema-copilot.ts): usage per settled call, read back per user over
// a rolling window for quotas (the (user_id, at_ms) index) and per (user, app, purpose, model)
// for reports; app sessions minted by windows and plugins; agent sessions' conversations; host uploads
// counted against the storage quota.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("llm_usage"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("input_tokens", "bigint", (c) => c.notNull())
    .addColumn("output_tokens", "bigint", (c) => c.notNull())
    .addColumn("total_tokens", "bigint", (c) => c.notNull())
    .addColumn("images", "integer", (c) => c.notNull())
    .addColumn("at_ms", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("llm_usage_user_at")
    .on("llm_usage")
    .columns(["user_id", "at_ms"])
    .execute();

  await idColumn(db, db.schema.createTable("copilot_sessions"))
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("origin", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("submode", "text")
    .addColumn("app_slug", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("minted_by", "text", (c) => c.notNull())
    .addColumn("label", "text")
    .addColumn("claims", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("max_lifetime_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema
    .createIndex("copilot_sessions_user")
    .on("copilot_sessions")
    .columns(["user_id", "created_at"])
    .execute();

  await idColumn(db, db.schema.createTable("copilot_messages"))
    .addColumn("session_uuid", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("copilot_messages_session")
    .on("copilot_messages")
    .columns(["session_uuid", "id"])
    .execute();

  await idColumn(db, db.schema.createTable("copilot_uploads"))
    .addColumn("r2_key", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
}
