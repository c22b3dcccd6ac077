import type { Kysely } from "kysely";

// Each user's recent window events, numbered, so an event stream resumes from `Last-Event-ID`
// on any node and a node that missed events on the bus reads them back (D-nexus-170).
// `runtime_event_heads` holds each user's last number: the append bumps it in the same
// transaction that inserts the events, so numbers are dense and commit in order per user.
// Rows are pruned by age and by count per user (runtime/sql-event-log.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("runtime_event_heads")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("runtime_events")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("runtime_events_pk", ["user_id", "seq"])
    .execute();
  await db.schema
    .createIndex("runtime_events_created_at")
    .on("runtime_events")
    .column("created_at")
    .execute();
}
