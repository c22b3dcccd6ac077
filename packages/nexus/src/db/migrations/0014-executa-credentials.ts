import type { Kysely } from "kysely";

// The values a user entered for an executa's declared credentials (spec "Credentials": API keys
// and similar, passed per invoke in `context.credentials`, H10). One row per (user, tool_id,
// credential name), so "which fields are set" is answered without opening any value. `sealed`
// is AES-256-GCM under the server's key-encryption key (src/tokens/key-encryption.ts) with the
// row's identity bound in as associated data: a dump does not reveal a value, and a sealed value
// copied into another user's row does not open.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("executa_credentials")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sealed", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("executa_credentials_pk", ["user_id", "tool_id", "name"])
    .execute();
}
