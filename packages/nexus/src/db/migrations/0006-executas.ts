import { type Kysely, sql } from "kysely";
import { idColumn } from "../id-column.js";

// The Executa Hub (spec L3795–4172, S2, R9, R10, A44): drafts reserve a minted tool_id, commit
// makes an executa, versions freeze it. The slug is unique per owner and type among executas that
// are not archived (a partial index, which SQLite and PostgreSQL both have), so archiving frees it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("executas"))
    .addColumn("owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("executa_type", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull().unique())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("first_promoted_at", "bigint")
    .addColumn("archived_at", "bigint")
    .execute();
  await db.schema
    .createIndex("executas_owner_type_slug_live")
    .on("executas")
    .columns(["owner_id", "executa_type", "slug"])
    .unique()
    .where(sql.ref("archived_at"), "is", null)
    .execute();

  await idColumn(db, db.schema.createTable("executa_drafts"))
    .addColumn("owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("executa_type", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull().unique())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("committed_executa_id", "integer", (c) =>
      c.references("executas.id").onDelete("cascade"),
    )
    .addUniqueConstraint("executa_drafts_owner_key", ["owner_id", "idempotency_key"])
    .execute();

  await idColumn(db, db.schema.createTable("executa_versions"))
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("content_hash", "text", (c) => c.notNull())
    .addColumn("snapshot_hash", "text", (c) => c.notNull())
    .addColumn("snapshot", "text", (c) => c.notNull())
    .addColumn("frozen_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("executa_versions_executa_version", ["executa_id", "version"])
    .execute();
}
