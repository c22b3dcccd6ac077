import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// Forward-only: `down` is deliberately absent; a later migration fixes an earlier one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("users"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_verified_developer", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("developer_activated_at", "bigint")
    .addColumn("developer_tos_version", "text")
    .addColumn("developer_revoked_at", "bigint")
    .addColumn("developer_handle", "text", (c) => c.unique())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable("sessions"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

  await idColumn(db, db.schema.createTable("dev_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("jti", "text", (c) => c.notNull().unique())
    .addColumn("label", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint")
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("dev_tokens_user_id").on("dev_tokens").column("user_id").execute();

  await idColumn(db, db.schema.createTable("device_codes"))
    .addColumn("device_code_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_code", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("approved_at", "bigint")
    .execute();
}
