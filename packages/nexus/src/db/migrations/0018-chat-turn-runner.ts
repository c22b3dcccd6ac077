import type { Kysely } from "kysely";

// Which node runs a chat turn, so that nodes sharing one database end only the turns of a node
// that is gone (D-nexus-167). Before this, every start failed every `running` turn, including
// the ones other nodes of a cluster were running.
// - `runner`: the node's id (ANNA_NODE_ID, or `<data>/node-id`); null on rows from before.
// - `heartbeat_at`: the runner refreshes it every few seconds while the turn runs; a turn whose
//   heartbeat is old is one whose node died, and any node ends it.
// - `cancel_requested_at`: a cancel that reached another node; the runner sees it on its next
//   heartbeat and stops the turn itself.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("chat_turns").addColumn("runner", "text").execute();
  await db.schema.alterTable("chat_turns").addColumn("heartbeat_at", "bigint").execute();
  await db.schema.alterTable("chat_turns").addColumn("cancel_requested_at", "bigint").execute();
}
