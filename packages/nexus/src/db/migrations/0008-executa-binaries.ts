import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// Executa binaries (spec L2505–2560, real-world-cli.md §B): short-lived upload tokens scoped to one
// executa (hashed at rest), resumable multi-part uploads with their plan, the finalized assets of
// each executa version and platform, and the OIDC trusted publishers registered per executa.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("executa_upload_tokens"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** `pat` (B1) or `oidc` (B2). */
    .addColumn("via", "text", (c) => c.notNull())
    .addColumn("publisher_id", "integer")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable("executa_binary_uploads"))
    .addColumn("upload_id", "text", (c) => c.notNull().unique())
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("executa_version", "text", (c) => c.notNull())
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("finalized_at", "bigint")
    .execute();

  await idColumn(db, db.schema.createTable("executa_binary_parts"))
    .addColumn("upload_id", "text", (c) =>
      c.notNull().references("executa_binary_uploads.upload_id").onDelete("cascade"),
    )
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("part_index", "integer", (c) => c.notNull())
    .addColumn("byte_size", "bigint", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("executa_binary_parts_slot", ["upload_id", "platform", "part_index"])
    .execute();

  await idColumn(db, db.schema.createTable("executa_binaries"))
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("executa_version", "text", (c) => c.notNull())
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("byte_size", "bigint", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("entrypoint", "text")
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("executa_binaries_slot", ["executa_id", "executa_version", "platform"])
    .execute();

  await idColumn(db, db.schema.createTable("executa_trusted_publishers"))
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("repository", "text", (c) => c.notNull())
    .addColumn("workflow", "text", (c) => c.notNull())
    /** '' means any environment: a unique constraint treats NULLs as distinct. */
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint")
    .addUniqueConstraint("executa_trusted_publishers_claims", [
      "executa_id",
      "repository",
      "workflow",
      "environment",
    ])
    .execute();
}
