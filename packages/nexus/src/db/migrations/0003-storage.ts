import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// APS storage (spec L8910–9272): KV entries, file objects, pending uploads and the per-user
// usage row every write locks. `user_id` is text because the storage rules (executa-host) name
// owners by string; `owner_id` is '' for scope `user`, the tool id for `tool`, the app id for
// `app`. Soft deletes keep the row (`deleted_at`), so a re-created key keeps counting its
// generation up and the row can be recovered.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("storage_usage")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("bytes_used", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("entry_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable("storage_kv"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("etag", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("metadata", "text")
    .addColumn("tags", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint")
    .addColumn("deleted_at", "bigint")
    .addUniqueConstraint("storage_kv_ns_key", ["user_id", "scope", "owner_id", "key"])
    .execute();

  await idColumn(db, db.schema.createTable("storage_files"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("etag", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    .addColumn("metadata", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("deleted_at", "bigint")
    .addUniqueConstraint("storage_files_ns_path", ["user_id", "scope", "owner_id", "path"])
    .execute();

  // One pending upload per path: a new begin supersedes the last. `reserved_bytes` counts against
  // the user's quota until `expires_at` (the soft reservation of R46).
  await idColumn(db, db.schema.createTable("storage_uploads"))
    .addColumn("upload_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("declared_bytes", "bigint", (c) => c.notNull())
    .addColumn("reserved_bytes", "bigint", (c) => c.notNull())
    .addColumn("metadata", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("storage_uploads_ns_path", ["user_id", "scope", "owner_id", "path"])
    .execute();
  await db.schema
    .createIndex("storage_uploads_user_expiry")
    .on("storage_uploads")
    .columns(["user_id", "expires_at"])
    .execute();
}
