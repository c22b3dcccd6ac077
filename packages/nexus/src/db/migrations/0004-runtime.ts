import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// The app runtime (schema-runtime.ts): windows, tool jobs, chat records and decks of app-core's
// stores, and the minimal app catalogue (`app_versions`, `user_apps`) the registry extends.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("runtime_windows"))
    .addColumn("window_uuid", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("version_id", "text", (c) => c.notNull())
    .addColumn("view", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("geometry", "text", (c) => c.notNull())
    .addColumn("runtime_state", "text", (c) => c.notNull())
    .addColumn("state_generation", "bigint", (c) => c.notNull())
    .addColumn("entry_payload", "text", (c) => c.notNull())
    .addColumn("conversation_session_uuid", "text")
    .addColumn("z_index", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_focus_at", "bigint", (c) => c.notNull())
    .addColumn("last_seen_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("runtime_windows_user_app")
    .on("runtime_windows")
    .columns(["user_id", "app_id", "status"])
    .execute();

  await idColumn(db, db.schema.createTable("runtime_tool_jobs"))
    .addColumn("job_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("version_id", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("tool", "text", (c) => c.notNull())
    .addColumn("client_tag", "text")
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("deadline_ms", "bigint", (c) => c.notNull())
    .addColumn("result", "text")
    .addColumn("error", "text")
    .addColumn("seq", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("runtime_tool_jobs_user_created")
    .on("runtime_tool_jobs")
    .columns(["user_id", "created_at"])
    .execute();

  for (const table of ["runtime_chat_artifacts", "runtime_chat_messages"]) {
    await idColumn(db, db.schema.createTable(table))
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("window_uuid", "text", (c) => c.notNull())
      .addColumn("record", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_user`).on(table).columns(["user_id", "app_id"]).execute();
  }

  await db.schema
    .createTable("runtime_decks")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("apps", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  // The minimal app catalogue the runtime reads; the registry extends it (listings, reviews,
  // publishing). An app's id is its row id, the numeric app_id the Host API shows.
  await idColumn(db, db.schema.createTable("apps"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("handle", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("app_versions")
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("manifest", "text", (c) => c.notNull())
    .addColumn("tool_ids", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("app_versions_pk", ["app_id", "version"])
    .execute();

  await db.schema
    .createTable("user_apps")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("web_grant", "text")
    .addColumn("credentials_grant", "text")
    .addColumn("installed_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_apps_pk", ["user_id", "app_id"])
    .execute();
}
