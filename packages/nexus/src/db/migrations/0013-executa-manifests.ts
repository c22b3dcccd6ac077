import type { Kysely } from "kysely";

// The server runs installed executas (src/executas): each frozen version is described once, and
// its manifest kept here, so a restart or a second server on the same database never starts a
// plugin just to learn its tools. A version row never changes, so neither does its manifest.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("executa_manifests")
    .addColumn("executa_version_id", "integer", (c) =>
      c.primaryKey().references("executa_versions.id").onDelete("cascade"),
    )
    .addColumn("manifest", "text", (c) => c.notNull())
    .addColumn("described_at", "bigint", (c) => c.notNull())
    .execute();
}
