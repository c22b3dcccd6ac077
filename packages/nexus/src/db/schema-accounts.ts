// Tables of the account features added after sign-up (migration 0005). Same conventions as
// schema.ts: epoch milliseconds, booleans as 0/1.
import type { Generated } from "kysely";

export interface EmailVerificationsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of the link's token; the token itself is only in the mail. */
  token_hash: string;
  /** The address the link was sent to: a link proves only that address. */
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface HandleReleasesTable {
  id: Generated<number>;
  /** A handle its owner renamed away from. */
  handle: string;
  /** Who held it: only they may take it back while it is frozen. */
  user_id: number;
  released_at: number;
  frozen_until: number;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
  /** window_start + window length: past it the row is stale and may be deleted. */
  expires_at: number;
}

export interface AccountTables {
  email_verifications: EmailVerificationsTable;
  handle_releases: HandleReleasesTable;
  rate_limits: RateLimitsTable;
}
