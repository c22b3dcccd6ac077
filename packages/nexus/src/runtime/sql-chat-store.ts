// app-core's ChatStore on SQLite or PostgreSQL: append-only rows, the filter columns beside the
// record as written, read back in write order (the auto-increment id).
import type { ChatArtifact, ChatFilter, ChatMessage, ChatStore } from "@anna-ai/app-core";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

type Table = "runtime_chat_artifacts" | "runtime_chat_messages";
type Tagged = { user_id: string; app_id: string; window_uuid: string };

export function sqlChatStore(db: Kysely<Database>): ChatStore {
  async function append(table: Table, record: Tagged): Promise<void> {
    await db
      .insertInto(table)
      .values({
        user_id: record.user_id,
        app_id: record.app_id,
        window_uuid: record.window_uuid,
        record: JSON.stringify(record),
      })
      .execute();
  }

  async function list<T>(table: Table, filter: ChatFilter): Promise<T[]> {
    let q = db.selectFrom(table).select("record").where("user_id", "=", filter.userId);
    if (filter.appId !== undefined) q = q.where("app_id", "=", filter.appId);
    if (filter.windowUuid !== undefined) q = q.where("window_uuid", "=", filter.windowUuid);
    const rows = await q.orderBy("id").execute();
    return rows.map((r) => JSON.parse(r.record) as T);
  }

  return {
    appendArtifact: (artifact) => append("runtime_chat_artifacts", artifact),
    appendMessage: (message) => append("runtime_chat_messages", message),
    listArtifacts: (filter) => list<ChatArtifact>("runtime_chat_artifacts", filter),
    listMessages: (filter) => list<ChatMessage>("runtime_chat_messages", filter),
  };
}
