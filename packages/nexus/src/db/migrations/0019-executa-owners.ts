import type { Kysely } from "kysely";

// One plugin process per (user, tool_id) across the nodes of a cluster (H11, D-nexus-168): the
// node that runs it, kept alive by its heartbeat. Another node's invoke goes to it over the bus;
// a row whose heartbeat is old belongs to a node that is gone, and the next invoke takes it over.
// `user_id` is text, as the pool names users.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("executa_owners")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("tool_id", "text", (c) => c.notNull())
    .addColumn("node", "text", (c) => c.notNull())
    .addColumn("heartbeat_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("executa_owners_pk", ["user_id", "tool_id"])
    .execute();
  await db.schema.createIndex("executa_owners_node").on("executa_owners").column("node").execute();
}
