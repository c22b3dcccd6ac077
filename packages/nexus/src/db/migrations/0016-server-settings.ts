import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// Settings an admin changes at run time (schema-settings.ts): one row per settings document
// (`llm`: the model configuration, provider keys sealed under the KEK), and an append-only audit
// of who changed what and when (the paths changed, never a value of a secret).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("server_settings")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();

  await idColumn(db, db.schema.createTable("server_settings_audit"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("changed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("changed_by_email", "text", (c) => c.notNull())
    .addColumn("changed_at", "bigint", (c) => c.notNull())
    .addColumn("changes", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("server_settings_audit_name_at")
    .on("server_settings_audit")
    .columns(["name", "changed_at"])
    .execute();
}
