// Tables of the server's executa runtime (migration 0013): the describe result of each frozen
// version it ran. Same conventions as schema.ts (epoch ms, JSON as text).

export interface ExecutaManifestsTable {
  executa_version_id: number;
  /** JSON: the `DescribedManifest` the plugin answered (`describe`). */
  manifest: string;
  described_at: number;
}

export interface ExecutaRuntimeTables {
  executa_manifests: ExecutaManifestsTable;
}
