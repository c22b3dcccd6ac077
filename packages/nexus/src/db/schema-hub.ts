// Tables of the Executa Hub: drafts, executas (tools and skills) and their immutable versions.
// Same conventions as schema.ts (epoch ms, JSON as text). Later tables (app versions, installs)
// reference `executa_versions.id`, which is why a version row never changes once written.
import type { Generated } from "kysely";

export interface ExecutaDraftsTable {
  id: Generated<number>;
  owner_id: number;
  /** `tool` | `skill` */
  executa_type: string;
  /** Minted when the draft is created and kept by the executa it commits to (A44). */
  tool_id: string;
  slug: string;
  name: string;
  /** JSON object: what the wizard or CLI filled in so far. */
  payload: string;
  /** The client's retry key (`idempotency_key` body field or `Idempotency-Key` header). */
  idempotency_key: string | null;
  created_at: number;
  /** Uncommitted drafts are gone after this (24 h TTL). */
  expires_at: number;
  committed_executa_id: number | null;
}

export interface ExecutasTable {
  id: Generated<number>;
  owner_id: number;
  executa_type: string;
  tool_id: string;
  slug: string;
  name: string;
  description: string | null;
  /** `private` | `app_bundled` | `public` (S2). */
  visibility: string;
  /** JSON object: the live, mutable row (distribution fields, skill_content, version, …). */
  payload: string;
  created_at: number;
  updated_at: number;
  /** The first move out of `private`; it froze a version then (S2). */
  first_promoted_at: number | null;
  /** Soft archive: a DELETE of an executa that a published app references. */
  archived_at: number | null;
}

export interface ExecutaVersionsTable {
  id: Generated<number>;
  executa_id: number;
  /** SemVer `X.Y.Z[-pre]`. */
  version: string;
  /** The client's `content_hash` when it sent one, else `snapshot_hash`. */
  content_hash: string;
  /** sha256 of the canonical snapshot without its `version`: "did anything change?". */
  snapshot_hash: string;
  /** JSON object: the executa's payload as frozen, with `version`. */
  snapshot: string;
  /** `publish` (an explicit freeze) or `app_bundled` (the automatic first one). */
  frozen_by: string;
  created_at: number;
}

export interface HubTables {
  executa_drafts: ExecutaDraftsTable;
  executas: ExecutasTable;
  executa_versions: ExecutaVersionsTable;
}
