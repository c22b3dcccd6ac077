// Tables of the app runtime the server serves windows from (migration 0004): app-core's window,
// tool-job, chat and deck stores. The app catalogue they resolve a window's app version and the
// user's grants from is the registry's (schema-apps.ts). Same conventions as schema.ts (epoch ms,
// JSON as text). The runtime tables name users by text, `users.id` as a string, the owner ids APS
// storage uses.
import type { Generated } from "kysely";

export interface RuntimeWindowsTable {
  /** Insertion order: the tie-break of `list`'s oldest-first order. */
  id: Generated<number>;
  window_uuid: string;
  user_id: string;
  app_id: string;
  version_id: string;
  view: string;
  status: string;
  title: string;
  /** JSON `{x, y, w, h, …}`. */
  geometry: string;
  /** JSON object. */
  runtime_state: string;
  state_generation: number;
  /** JSON of any value (`null` included). */
  entry_payload: string;
  conversation_session_uuid: string | null;
  z_index: number;
  created_at: number;
  last_focus_at: number;
  last_seen_at: number;
}

export interface RuntimeToolJobsTable {
  id: Generated<number>;
  job_id: string;
  user_id: string;
  app_id: string;
  version_id: string;
  tool_id: string;
  tool: string;
  client_tag: string | null;
  state: string;
  created_at: number;
  updated_at: number;
  deadline_ms: number;
  /** JSON of the result; SQL NULL when the job has none (JSON `null` is the text "null"). */
  result: string | null;
  /** JSON `{code, message, details?}` or NULL. */
  error: string | null;
  seq: number;
}

/** One table per record kind; the filter columns beside the record as written (JSON). */
export interface RuntimeChatRecordsTable {
  /** Write order. */
  id: Generated<number>;
  user_id: string;
  app_id: string;
  window_uuid: string;
  record: string;
}

export interface RuntimeDecksTable {
  user_id: string;
  /** JSON array of app ids, in deck order. */
  apps: string;
  updated_at: number;
}

/** A user's last window event number (migration 0020). */
export interface RuntimeEventHeadsTable {
  user_id: string;
  seq: number;
}

/** One numbered window event, kept for a resume (runtime/sql-event-log.ts). */
export interface RuntimeEventsTable {
  user_id: string;
  seq: number;
  /** The AnnaAppEvent as JSON. */
  event: string;
  created_at: number;
}

export interface RuntimeTables {
  runtime_windows: RuntimeWindowsTable;
  runtime_tool_jobs: RuntimeToolJobsTable;
  runtime_chat_artifacts: RuntimeChatRecordsTable;
  runtime_chat_messages: RuntimeChatRecordsTable;
  runtime_decks: RuntimeDecksTable;
  runtime_event_heads: RuntimeEventHeadsTable;
  runtime_events: RuntimeEventsTable;
}
