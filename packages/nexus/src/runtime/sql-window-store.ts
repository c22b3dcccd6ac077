// app-core's WindowStore on SQLite or PostgreSQL. A window is one row; every field the dispatcher
// patches is its own column (JSON ones as text), so an update is one UPDATE of the named columns:
// two server nodes writing different fields of one window do not overwrite each other's, and
// runtime-state writes compare-and-set on `state_generation`.
import type { WindowListFilter, WindowRecord, WindowStore } from "@anna-ai/app-core";
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database } from "../db/schema.js";
import type { RuntimeWindowsTable } from "../db/schema-runtime.js";
import { uniqueViolation } from "../stores/sql-stores.js";

type Row = Selectable<RuntimeWindowsTable>;
type Columns = Omit<Insertable<RuntimeWindowsTable>, "id">;
type Patch = Partial<Omit<WindowRecord, "windowUuid">>;

function toRecord(r: Row): WindowRecord {
  return {
    windowUuid: r.window_uuid,
    userId: r.user_id,
    appId: r.app_id,
    versionId: r.version_id,
    view: r.view,
    status: r.status as WindowRecord["status"],
    title: r.title,
    geometry: JSON.parse(r.geometry) as WindowRecord["geometry"],
    runtimeState: JSON.parse(r.runtime_state) as Record<string, unknown>,
    stateGeneration: Number(r.state_generation),
    entryPayload: JSON.parse(r.entry_payload) as unknown,
    conversationSessionUuid: r.conversation_session_uuid,
    zIndex: Number(r.z_index),
    createdAt: Number(r.created_at),
    lastFocusAt: Number(r.last_focus_at),
    lastSeenAt: Number(r.last_seen_at),
  };
}

/** The columns of the fields `patch` names (and only those). */
function columnsOf(patch: Patch): Partial<Columns> {
  const out: Partial<Columns> = {};
  if (patch.userId !== undefined) out.user_id = patch.userId;
  if (patch.appId !== undefined) out.app_id = patch.appId;
  if (patch.versionId !== undefined) out.version_id = patch.versionId;
  if (patch.view !== undefined) out.view = patch.view;
  if (patch.status !== undefined) out.status = patch.status;
  if (patch.title !== undefined) out.title = patch.title;
  if (patch.geometry !== undefined) out.geometry = JSON.stringify(patch.geometry);
  if (patch.runtimeState !== undefined) out.runtime_state = JSON.stringify(patch.runtimeState);
  if (patch.stateGeneration !== undefined) out.state_generation = patch.stateGeneration;
  if ("entryPayload" in patch) out.entry_payload = JSON.stringify(patch.entryPayload ?? null);
  if (patch.conversationSessionUuid !== undefined) {
    out.conversation_session_uuid = patch.conversationSessionUuid;
  }
  if (patch.zIndex !== undefined) out.z_index = patch.zIndex;
  if (patch.createdAt !== undefined) out.created_at = patch.createdAt;
  if (patch.lastFocusAt !== undefined) out.last_focus_at = patch.lastFocusAt;
  if (patch.lastSeenAt !== undefined) out.last_seen_at = patch.lastSeenAt;
  return out;
}

export function sqlWindowStore(db: Kysely<Database>): WindowStore {
  return {
    async insert(record) {
      try {
        await db
          .insertInto("runtime_windows")
          .values({
            window_uuid: record.windowUuid,
            // Every field is present on a full record, so every column is set.
            ...(columnsOf(record) as Omit<Columns, "window_uuid">),
          })
          .execute();
      } catch (err) {
        if (uniqueViolation(err) !== undefined)
          throw new Error(`window ${record.windowUuid} already exists`);
        throw err;
      }
    },
    async get(windowUuid) {
      const row = await db
        .selectFrom("runtime_windows")
        .selectAll()
        .where("window_uuid", "=", windowUuid)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
    async update(windowUuid, patch) {
      const columns = columnsOf(patch);
      const row =
        Object.keys(columns).length === 0
          ? await db
              .selectFrom("runtime_windows")
              .selectAll()
              .where("window_uuid", "=", windowUuid)
              .executeTakeFirst()
          : await db
              .updateTable("runtime_windows")
              .set(columns)
              .where("window_uuid", "=", windowUuid)
              .returningAll()
              .executeTakeFirst();
      if (row === undefined) throw new Error(`no window ${windowUuid}`);
      return toRecord(row);
    },
    async updateIfGeneration(windowUuid, generation, patch) {
      // One conditional UPDATE: of two nodes writing the state they both read, one matches.
      const row = await db
        .updateTable("runtime_windows")
        .set(columnsOf(patch))
        .where("window_uuid", "=", windowUuid)
        .where("state_generation", "=", generation)
        .returningAll()
        .executeTakeFirst();
      if (row !== undefined) return toRecord(row);
      const exists = await db
        .selectFrom("runtime_windows")
        .select("id")
        .where("window_uuid", "=", windowUuid)
        .executeTakeFirst();
      if (exists === undefined) throw new Error(`no window ${windowUuid}`);
      return undefined;
    },
    async list(filter: WindowListFilter) {
      let q = db.selectFrom("runtime_windows").selectAll().where("user_id", "=", filter.userId);
      if (filter.appId !== undefined) q = q.where("app_id", "=", filter.appId);
      if (filter.conversationSessionUuid !== undefined) {
        q =
          filter.conversationSessionUuid === null
            ? q.where("conversation_session_uuid", "is", null)
            : q.where("conversation_session_uuid", "=", filter.conversationSessionUuid);
      }
      if (filter.view !== undefined) q = q.where("view", "=", filter.view);
      if (filter.statuses !== undefined) {
        if (filter.statuses.length === 0) return [];
        q = q.where("status", "in", [...filter.statuses]);
      }
      const rows = await q.orderBy("created_at").orderBy("id").execute();
      return rows.map(toRecord);
    },
  };
}
