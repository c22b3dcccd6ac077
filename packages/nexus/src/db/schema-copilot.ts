// Tables of the LLM gateway in Nexus (migration 0011-llm-usage): the usage every model call
// settles, the app sessions `/api/v1/copilot/app/sessions` (window token) and
// `/sessions/from_sampling` (sampling token) create, and an agent session's conversation.
// Same conventions as schema.ts (epoch ms, JSON as text).
import type { Generated } from "kysely";

/** One row per settled model call: per (user, app, purpose, model) sums are queries over it. */
export interface LlmUsageTable {
  id: Generated<number>;
  /** Nexus's numeric user id, as text (the gateway's `CallAccount.userId`). */
  user_id: string;
  /** The app slug (or `app:<id>` of a window); '' when the call came from no app. */
  app_id: string;
  /** The executa whose reverse call it was; '' when none. */
  tool_id: string;
  /** `chat` | `agent` | `sampling` | `embeddings` | `images` */
  purpose: string;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  images: number;
  at_ms: number;
}

/**
 * App sessions minted without a PAT (a window's or a plugin's). PAT-minted ones live in
 * `dev_sessions`, whose rows must name the PAT; both kinds answer the same copilot endpoints.
 */
export interface CopilotSessionsTable {
  id: Generated<number>;
  /** `aps_<32 hex>`, as dev sessions. */
  uuid: string;
  user_id: number;
  /** `window` | `sampling` */
  origin: string;
  /** `agent` | `complete` */
  kind: string;
  submode: string | null;
  /** The app slug, or `app:<id>` for a window of an installed app. */
  app_slug: string;
  tool_id: string;
  /** The window (origin `window`) or invoke (origin `sampling`) that minted it. */
  minted_by: string;
  label: string | null;
  /** JSON: `{fixed_client_id, system_prompt, quota_caps}`. */
  claims: string;
  created_at: number;
  expires_at: number;
  max_lifetime_at: number;
  revoked_at: number | null;
}

/** An agent session's conversation, oldest first by `id`; the prompt replays the newest. */
export interface CopilotMessagesTable {
  id: Generated<number>;
  session_uuid: string;
  user_id: number;
  run_id: string;
  /** `user` | `assistant` */
  role: string;
  content: string;
  created_at: number;
}

/** Host uploads counted against the user's storage quota: the unique key makes confirm idempotent. */
export interface CopilotUploadsTable {
  id: Generated<number>;
  r2_key: string;
  user_id: string;
  size_bytes: number;
  content_type: string;
  created_at: number;
}

export interface CopilotTables {
  copilot_uploads: CopilotUploadsTable;
  llm_usage: LlmUsageTable;
  copilot_sessions: CopilotSessionsTable;
  copilot_messages: CopilotMessagesTable;
}
