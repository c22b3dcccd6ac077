import { type Kysely, sql } from "kysely";
import { idColumn } from "../id-column.js";

// The app registry (schema-apps.ts): the listing and status machine S1 on `apps`, numbered
// versions, the working draft, UI bundles and reviews. 0004 made `app_versions` keyed by
// (app_id, version) for the runtime; the registry needs a numeric version id the CLI caches and
// bundles hang off, so the table is rebuilt with one (rows kept, the pair stays unique).
export async function up(db: Kysely<unknown>): Promise<void> {
  const addApps: [string, string, string?][] = [
    ["owner_id", "integer"],
    ["name", "text", "''"],
    ["status", "text", "'DRAFT'"],
    ["category", "text"],
    ["tagline", "text"],
    ["description", "text"],
    ["logo_url", "text"],
    ["cover_url", "text"],
    ["homepage_url", "text"],
    ["support_url", "text"],
    ["privacy_url", "text"],
    ["screenshots", "text", "'[]'"],
    ["is_dev", "integer", "0"],
    ["review_message", "text"],
    ["reviewed_at", "bigint"],
    ["reviewed_by_id", "integer"],
    ["latest_version_id", "integer"],
    ["install_count", "bigint", "0"],
    ["first_published_at", "bigint"],
    ["archived_at", "bigint"],
    ["updated_at", "bigint", "0"],
  ];
  for (const [name, type, fallback] of addApps) {
    await db.schema
      .alterTable("apps")
      .addColumn(name, sql.raw(type), (c) =>
        fallback === undefined ? c : c.notNull().defaultTo(sql.raw(fallback)),
      )
      .execute();
  }
  await db.schema.createIndex("apps_owner").on("apps").column("owner_id").execute();
  await db.schema.createIndex("apps_status").on("apps").column("status").execute();

  await db.schema.alterTable("app_versions").renameTo("app_versions_0004").execute();
  await idColumn(db, db.schema.createTable("app_versions"))
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("manifest", "text", (c) => c.notNull())
    .addColumn("tool_ids", "text", (c) => c.notNull())
    .addColumn("changelog", "text")
    .addColumn("content_hash", "text")
    .addColumn("frozen_executas", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("source", "text", (c) => c.notNull().defaultTo("load"))
    .addColumn("published_at", "bigint")
    .addColumn("release_review_state", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("app_versions_app_version", ["app_id", "version"])
    .execute();
  await sql`insert into app_versions (app_id, version, name, manifest, tool_ids, created_at)
    select app_id, version, name, manifest, tool_ids, created_at from app_versions_0004`.execute(
    db,
  );
  await db.schema.dropTable("app_versions_0004").execute();

  await db.schema
    .createTable("app_working")
    .addColumn("app_id", "integer", (c) => c.primaryKey().references("apps.id").onDelete("cascade"))
    .addColumn("revision", "bigint", (c) => c.notNull())
    .addColumn("manifest", "text", (c) => c.notNull())
    .addColumn("changelog", "text")
    .addColumn("content_hash", "text", (c) => c.notNull())
    .addColumn("cut_version_id", "integer")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable("app_bundles"))
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("version_id", "integer", (c) => c.references("app_versions.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("bundle_format", "text", (c) => c.notNull())
    .addColumn("entry_path", "text", (c) => c.notNull())
    .addColumn("external_origins", "text", (c) => c.notNull())
    .addColumn("file_map", "text", (c) => c.notNull())
    .addColumn("file_count", "integer", (c) => c.notNull())
    .addColumn("total_size_bytes", "bigint", (c) => c.notNull())
    .addColumn("sha256_manifest", "text", (c) => c.notNull())
    .addColumn("object_prefix", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("finalized_at", "bigint")
    .execute();
  await db.schema
    .createIndex("app_bundles_app_version")
    .on("app_bundles")
    .columns(["app_id", "version_id"])
    .execute();

  await db.schema
    .createTable("app_bundle_files")
    .addColumn("bundle_id", "integer", (c) =>
      c.notNull().references("app_bundles.id").onDelete("cascade"),
    )
    .addColumn("relative_path", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("byte_size", "bigint", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("app_bundle_files_pk", ["bundle_id", "relative_path"])
    .execute();

  await idColumn(db, db.schema.createTable("app_reviews"))
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("version_id", "integer", (c) => c.references("app_versions.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("submitted_by_id", "integer", (c) => c.notNull())
    .addColumn("submitted_at", "bigint", (c) => c.notNull())
    .addColumn("checks", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("decided_by_id", "integer")
    .addColumn("decided_at", "bigint")
    .addColumn("reason", "text")
    .execute();
  await db.schema
    .createIndex("app_reviews_status")
    .on("app_reviews")
    .columns(["status", "submitted_at"])
    .execute();
  await db.schema.createIndex("app_reviews_app").on("app_reviews").column("app_id").execute();
}
