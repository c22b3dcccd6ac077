// Tables of the app runtime the server serves windows from (migration 0004): app-core's window,
// tool-job, chat and deck stores, and the minimal app catalogue the runtime resolves a window's
// app version and the user's grants from. The registry (issue 12) owns `apps`, `app_versions`
// and `user_apps` from then on and extends them. Same conventions as schema.ts (epoch ms, JSON as
// text). The runtime tables name users by text, `users.id` as a string, the owner ids APS
// storage uses; the catalogue tables reference `users.id` itself.
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

/** One app; its row id is the numeric app_id the Host API shows (as a string). */
export interface AppsTable {
  id: Generated<number>;
  slug: string;
  /** The developer handle of `@handle/slug`, when the app has one. */
  handle: string | null;
  created_at: number;
}

/** One published (or locally loaded) version of an app. */
export interface AppVersionsTable {
  app_id: number;
  /** The version string (`1.2.0`): the Host API's `version_id`. */
  version: string;
  name: string;
  /** The manifest as the app validator accepted it (JSON). */
  manifest: string;
  /** JSON `{ "bundled:<handle>": "<tool_id>" }`. */
  tool_ids: string;
  created_at: number;
}

/** An app installed for a user: the version they run and their grants for it. */
export interface UserAppsTable {
  user_id: number;
  app_id: number;
  version: string;
  enabled: number;
  /** JSON WebGrant or NULL (disabled). */
  web_grant: string | null;
  /** JSON CredentialsGrant or NULL (disabled). */
  credentials_grant: string | null;
  installed_at: number;
}

export interface RuntimeTables {
  runtime_windows: RuntimeWindowsTable;
  runtime_tool_jobs: RuntimeToolJobsTable;
  runtime_chat_artifacts: RuntimeChatRecordsTable;
  runtime_chat_messages: RuntimeChatRecordsTable;
  runtime_decks: RuntimeDecksTable;
  apps: AppsTable;
  app_versions: AppVersionsTable;
  user_apps: UserAppsTable;
}
