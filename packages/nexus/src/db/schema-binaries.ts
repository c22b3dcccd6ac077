// Tables of executa binaries (migration 0008): upload tokens, uploads with their parts, the
// finalized assets per executa version and platform, and OIDC trusted publishers.
import type { Generated } from "kysely";

export interface ExecutaUploadTokensTable {
  id: Generated<number>;
  /** SHA-256 hex of the upload token; the token itself is never stored. */
  token_hash: string;
  executa_id: number;
  /** Who the upload acts for: the owner (B1) or the owner through a trusted publisher (B2). */
  user_id: number;
  /** `pat` | `oidc` */
  via: string;
  publisher_id: number | null;
  created_at: number;
  expires_at: number;
}

export interface ExecutaBinaryUploadsTable {
  id: Generated<number>;
  /** `bup_…`, the id B4/B5 name in their path. */
  upload_id: string;
  executa_id: number;
  executa_version: string;
  /** JSON: platform → {filename, sha256, byte_size, format, entrypoint, part_size, part_count, status}. */
  plan: string;
  created_at: number;
  expires_at: number;
  finalized_at: number | null;
}

export interface ExecutaBinaryPartsTable {
  id: Generated<number>;
  upload_id: string;
  platform: string;
  part_index: number;
  byte_size: number;
  blob_key: string;
  created_at: number;
}

export interface ExecutaBinariesTable {
  id: Generated<number>;
  executa_id: number;
  executa_version: string;
  platform: string;
  filename: string;
  /** Lower-hex SHA-256 of the archive, verified by the server at finalize. */
  sha256: string;
  byte_size: number;
  /** `tar.gz` | `zip` */
  format: string;
  entrypoint: string | null;
  blob_key: string;
  created_at: number;
}

export interface ExecutaTrustedPublishersTable {
  id: Generated<number>;
  executa_id: number;
  /** `owner/repo`, compared case-insensitively (GitHub's names are). */
  repository: string;
  /** The workflow file name, e.g. `publish.yml`. */
  workflow: string;
  /** '' for any environment. */
  environment: string;
  created_at: number;
  last_used_at: number | null;
}

export interface BinaryTables {
  executa_upload_tokens: ExecutaUploadTokensTable;
  executa_binary_uploads: ExecutaBinaryUploadsTable;
  executa_binary_parts: ExecutaBinaryPartsTable;
  executa_binaries: ExecutaBinariesTable;
  executa_trusted_publishers: ExecutaTrustedPublishersTable;
}
