// The one set of table types every query is checked against. Both dialects store the same
// values: booleans as 0/1 integers, timestamps as epoch milliseconds (bigint in PostgreSQL,
// parsed back to numbers by the pool), JSON as text.
import type { Generated } from "kysely";
import type { RuntimeTables } from "./schema-runtime.js";
import type { BinaryTables } from "./schema-binaries.js";
import type { HubTables } from "./schema-hub.js";
import type { AppTables } from "./schema-apps.js";
import type { InstallTables } from "./schema-installs.js";
import type { AccountTables } from "./schema-accounts.js";
import type { TokenTables } from "./schema-tokens.js";
import type { ChatTables } from "./schema-chat.js";
import type { CopilotTables } from "./schema-copilot.js";
import type { ExecutaRuntimeTables } from "./schema-executas.js";
import type { SettingsTables } from "./schema-settings.js";

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  /** `scrypt$N$r$p$<salt b64url>$<hash b64url>` */
  password_hash: string;
  is_admin: number;
  /** Email verified (spec R1 `is_verified`). */
  is_verified: number;
  is_verified_developer: number;
  developer_activated_at: number | null;
  developer_tos_version: string | null;
  /** Set by an admin revoke (S3); cleared by restore. */
  developer_revoked_at: number | null;
  developer_handle: string | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 hex of the cookie value; the value itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface DevTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of the PAT. */
  token_hash: string;
  /** Public identifier shown in lists (the CLI reads `jti`). */
  jti: string;
  label: string | null;
  /** JSON array of scope names. */
  scopes: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface DeviceCodesTable {
  id: Generated<number>;
  /** SHA-256 hex of the device code the CLI polls with. */
  device_code_hash: string;
  user_code: string;
  /** pending → approved → consumed */
  status: string;
  user_id: number | null;
  scopes: string;
  created_at: number;
  expires_at: number;
  approved_at: number | null;
}

/** The row every storage write of a user locks first, so quota checks are atomic. */
export interface StorageUsageTable {
  user_id: string;
  /** Live KV payload bytes plus active file bytes. */
  bytes_used: number;
  /** Live KV entries plus active files. */
  entry_count: number;
  updated_at: number;
}

export interface StorageKvTable {
  id: Generated<number>;
  user_id: string;
  scope: string;
  /** '' for scope `user`, else the tool or app id. */
  owner_id: string;
  key: string;
  /** Canonical JSON of the value. */
  payload: string;
  /** `sha256(payload)[:32]` */
  etag: string;
  generation: number;
  size_bytes: number;
  /** JSON object or null. */
  metadata: string | null;
  /** JSON array or null. */
  tags: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  deleted_at: number | null;
}

export interface StorageFilesTable {
  id: Generated<number>;
  user_id: string;
  scope: string;
  owner_id: string;
  path: string;
  blob_key: string;
  size_bytes: number;
  content_type: string;
  etag: string;
  generation: number;
  metadata: string | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface StorageUploadsTable {
  id: Generated<number>;
  upload_id: string;
  user_id: string;
  scope: string;
  owner_id: string;
  path: string;
  blob_key: string;
  content_type: string;
  declared_bytes: number;
  reserved_bytes: number;
  metadata: string | null;
  created_at: number;
  expires_at: number;
}

export interface Database
  extends
    TokenTables,
    RuntimeTables,
    HubTables,
    AccountTables,
    AppTables,
    BinaryTables,
    InstallTables,
    ChatTables,
    CopilotTables,
    ExecutaRuntimeTables,
    SettingsTables {
  users: UsersTable;
  sessions: SessionsTable;
  dev_tokens: DevTokensTable;
  device_codes: DeviceCodesTable;
  storage_usage: StorageUsageTable;
  storage_kv: StorageKvTable;
  storage_files: StorageFilesTable;
  storage_uploads: StorageUploadsTable;
}
