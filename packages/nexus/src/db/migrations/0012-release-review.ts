import { type Kysely, sql } from "kysely";

// Release review (spec 8189–8191): on a server that reviews releases, a new version of a live app
// waits in `release_review_state` (0007 made the column: `pending`, then `approved` or
// `rejected`); these record who decided, when, and the reason the developer reads back. The
// queue asks for the pending ones across all apps, oldest first.
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: [string, string][] = [
    ["release_requested_at", "bigint"],
    ["release_reviewed_at", "bigint"],
    ["release_reviewed_by_id", "integer"],
    ["release_review_message", "text"],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable("app_versions").addColumn(name, sql.raw(type)).execute();
  }
  await db.schema
    .createIndex("app_versions_release_review")
    .on("app_versions")
    .columns(["release_review_state", "release_requested_at"])
    .execute();
}
