// Tables of the server's executa runtime: the describe result of each frozen version it ran
// (migration 0013) and the credential values users entered for executas (0014). Same conventions
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

export interface ExecutaRuntimeTables {
  executa_manifests: ExecutaManifestsTable;
  executa_credentials: ExecutaCredentialsTable;
}
