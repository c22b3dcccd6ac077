import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// Account features beyond sign-up: email verification links, the 90-day freeze of handles a
// developer renamed away from, and the rate-limit counters several Nexus instances on one
// database share (one row per key; `expires_at` lets any instance prune stale windows).
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("email_verifications"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema
    .createIndex("email_verifications_user_id")
    .on("email_verifications")
    .column("user_id")
    .execute();

  await idColumn(db, db.schema.createTable("handle_releases"))
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("released_at", "bigint", (c) => c.notNull())
    .addColumn("frozen_until", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("handle_releases_handle")
    .on("handle_releases")
    .column("handle")
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("rate_limits_expires_at")
    .on("rate_limits")
    .column("expires_at")
    .execute();
}
