import type { Kysely } from "kysely";
import { idColumn } from "../id-column.js";

// Per-invoke token signing keys and the dev sessions minted from PATs (schema-tokens.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("signing_keys"))
    .addColumn("kid", "text", (c) => c.notNull().unique())
    .addColumn("alg", "text", (c) => c.notNull())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("private_jwk_sealed", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("superseded_at", "bigint")
    .addColumn("retire_at", "bigint")
    .execute();

  await idColumn(db, db.schema.createTable("dev_sessions"))
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("dev_token_id", "integer", (c) =>
      c.notNull().references("dev_tokens.id").onDelete("cascade"),
    )
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("submode", "text")
    .addColumn("app_slug", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("label", "text")
    .addColumn("claims", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("max_lifetime_at", "bigint", (c) => c.notNull())
    .addColumn("last_minted_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema
    .createIndex("dev_sessions_user_app")
    .on("dev_sessions")
    .columns(["user_id", "app_slug"])
    .execute();
}
