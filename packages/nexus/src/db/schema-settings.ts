// Settings an admin changes at run time (migration 0016-server-settings). Same conventions as
// schema.ts (epoch ms, JSON as text).
import type { Generated } from "kysely";

export interface ServerSettingsTable {
  /** `llm`: the model configuration the admin page edits. */
  name: string;
  /** JSON; secrets in it are sealed under the KEK (`{"sealed": "v1.…"}`). */
  value: string;
  /** Bumped by every change: a PUT names the version it read, so two admins cannot clobber. */
  version: number;
  updated_at: number;
  updated_by: number | null;
}

/** Append-only: one row per change. */
export interface ServerSettingsAuditTable {
  id: Generated<number>;
  name: string;
  changed_by: number | null;
  /** Kept beside the id: the audit outlives a deleted account. */
  changed_by_email: string;
  changed_at: number;
  /** JSON list of `{setting, change}`: `set`, `cleared`, or for non-secrets `a → b`. */
  changes: string;
}

export interface SettingsTables {
  server_settings: ServerSettingsTable;
  server_settings_audit: ServerSettingsAuditTable;
}
