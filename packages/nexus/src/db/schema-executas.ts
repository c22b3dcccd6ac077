import type { Generated } from "kysely";

// Tables of the server's executa runtime: the describe result of each frozen version it ran
// (migration 0013), the credential values users entered for executas (0014) and the accounts
// they connected at platform OAuth providers (0017). Same conventions
// as schema.ts (epoch ms, JSON as text).

export interface ExecutaManifestsTable {
  executa_version_id: number;
  /** JSON: the `DescribedManifest` the plugin answered (`describe`). */
  manifest: string;
  described_at: number;
}

/** Migration 0014: one credential value a user entered for an executa, sealed at rest. */
export interface ExecutaCredentialsTable {
  user_id: number;
  tool_id: string;
  /** The declared `credentials[].name` (the key under `context.credentials`). */
  name: string;
  /** `v1.<iv>.<tag>.<ciphertext>` under the server's KEK; never the value in clear. */
  sealed: string;
  created_at: number;
  updated_at: number;
}

/** Migration 0017: one account a user connected at a platform OAuth provider. */
export interface ConnectedAccountsTable {
  id: Generated<number>;
  user_id: number;
  /** The operator-configured provider id (`google`, `twitter`, …). */
  provider: string;
  /** The provider's id of the account (userinfo `sub`/`id`); what `credentials/*` names. */
  account_id: string;
  email: string | null;
  label: string | null;
  /** JSON array of the granted scopes. */
  scopes: string;
  /** `active`, or `needs_reauth` once a refresh was refused (the user reconnects). */
  status: string;
  /** 1 for exactly one row per (user, provider). */
  is_default: number;
  /** The access token sealed under the KEK. */
  access_sealed: string;
  /** The refresh token sealed under the KEK; never sent anywhere but the provider. */
  refresh_sealed: string | null;
  /** Epoch ms the access token expires; null when the provider said nothing. */
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  refreshed_at: number | null;
}

/** Migration 0017: an authorize redirect in flight (one use, until `expires_at`). */
export interface OAuthFlowsTable {
  /** SHA-256 hex of the `state` sent to the provider. */
  state_hash: string;
  user_id: number;
  /** The session that started it (its token hash): the callback must come in that session. */
  session_hash: string;
  provider: string;
  /** The PKCE code verifier sealed under the KEK. */
  verifier_sealed: string;
  /** JSON array of the scopes asked for. */
  scopes: string;
  created_at: number;
  expires_at: number;
}

/** Migration 0019: the node that runs a user's plugin process for a tool (one in the cluster). */
export interface ExecutaOwnersTable {
  user_id: string;
  tool_id: string;
  /** The owner's node id (ANNA_NODE_ID or `<data>/node-id`). */
  node: string;
  /** Refreshed by the owner every few seconds; an old one means the node is gone. */
  heartbeat_at: number;
}

export interface ExecutaRuntimeTables {
  executa_owners: ExecutaOwnersTable;
  executa_manifests: ExecutaManifestsTable;
  executa_credentials: ExecutaCredentialsTable;
  connected_accounts: ConnectedAccountsTable;
  oauth_flows: OAuthFlowsTable;
}
