// Tables of the app registry (migrations 0004 and 0007): apps with their store listing and
// status machine S1, numbered immutable versions, the working draft, UI bundles, reviews, and the
// installs the runtime resolves a window's app version and the user's grants from. Same
// conventions as schema.ts (epoch ms, booleans 0/1, JSON as text).
import type { Generated } from "kysely";

/** `DRAFT | PENDING_REVIEW | APPROVED | REJECTED | PUBLISHED | ARCHIVED`, upper case on the wire. */
export type AppStatus =
  "DRAFT" | "PENDING_REVIEW" | "APPROVED" | "REJECTED" | "PUBLISHED" | "ARCHIVED";

/** One app; its row id is the numeric app_id the CLI caches and the Host API shows. */
export interface AppsTable {
  id: Generated<number>;
  /** Globally unique; changeable only before the first publish. */
  slug: string;
  /** The developer handle of `@handle/slug`, when the app has one. */
  handle: string | null;
  /** The developer who owns it; NULL for apps loaded by an operator (`admin load-app`). */
  owner_id: number | null;
  /** Listing fields: stored once, shared by every version. */
  name: Generated<string>;
  status: Generated<AppStatus>;
  category: string | null;
  tagline: string | null;
  description: string | null;
  logo_url: string | null;
  cover_url: string | null;
  homepage_url: string | null;
  support_url: string | null;
  privacy_url: string | null;
  /** JSON array of URLs (at most 6). */
  screenshots: Generated<string>;
  is_dev: Generated<number>;
  /** The reviewer's last note (a rejection's reason). */
  review_message: string | null;
  reviewed_at: number | null;
  reviewed_by_id: number | null;
  /** The `is_latest` version: the highest published SemVer. */
  latest_version_id: number | null;
  install_count: Generated<number>;
  /** Set once; `rename-slug` is refused from then on. */
  first_published_at: number | null;
  archived_at: number | null;
  created_at: number;
  updated_at: Generated<number>;
}

/** One immutable version of an app (created by publish, cut or an operator's load). */
export interface AppVersionsTable {
  id: Generated<number>;
  app_id: number;
  /** SemVer `X.Y.Z[-pre]`, unique per app: the Host API's `version_id`. */
  version: string;
  name: string;
  /** The manifest as the app validator accepted it, `bundled:` handles substituted (JSON). */
  manifest: string;
  /** JSON `{ "bundled:<handle>": "<tool_id>" }`. */
  tool_ids: string;
  changelog: string | null;
  /** The client's `content_hash`: a retried create with the same hash is an idempotent hit. */
  content_hash: string | null;
  /** JSON array `{tool_id, executa_version_id, version}`: the executa versions frozen on cut. */
  frozen_executas: Generated<string>;
  /** `publish` | `cut` | `load` */
  source: Generated<string>;
  /** When it was released; NULL while unreleased. */
  published_at: number | null;
  /**
   * Release review (spec 8189): `pending` while a release of a new version of a live app waits
   * for an admin, then `approved` (released) or `rejected`; NULL when no review was asked.
   */
  release_review_state: string | null;
  /** When the developer released it into review (0012). */
  release_requested_at: number | null;
  release_reviewed_at: number | null;
  release_reviewed_by_id: number | null;
  /** The admin's reason on reject (or notes on approve), shown to the developer. */
  release_review_message: string | null;
  created_at: number;
}

/** The one mutable working draft of an app (`apps push`), cut into a version by `apps cut`. */
export interface AppWorkingTable {
  app_id: number;
  /** Bumped on every changed push; `If-Match` compares against it. */
  revision: number;
  manifest: string;
  changelog: string | null;
  content_hash: string;
  /** The version the current revision was cut into, NULL when dirty against the latest cut. */
  cut_version_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A UI bundle: of one version (`version_id`) or of the working draft (`version_id` NULL). */
export interface AppBundlesTable {
  id: Generated<number>;
  app_id: number;
  version_id: number | null;
  /** `staging` until finalize verified every file, then `ready` and never changed again. */
  status: string;
  bundle_format: string;
  entry_path: string;
  /** JSON array of origins. */
  external_origins: string;
  /** JSON `{<relative_path>: {sha256, byte_size, content_type}}` as declared at init. */
  file_map: string;
  file_count: number;
  total_size_bytes: number;
  /** sha256 hex of the canonical file map: the client's fingerprint. */
  sha256_manifest: string;
  /** The blob-store prefix the files live under. */
  object_prefix: string;
  created_at: number;
  finalized_at: number | null;
}

/** A file received for a bundle, checked against the declared entry before it is kept. */
export interface AppBundleFilesTable {
  bundle_id: number;
  relative_path: string;
  sha256: string;
  byte_size: number;
  content_type: string;
  blob_key: string;
  uploaded_at: number;
}

/** One submission for review and its outcome. */
export interface AppReviewsTable {
  id: Generated<number>;
  app_id: number;
  /** The candidate version (the newest one at submit), when there is one. */
  version_id: number | null;
  /** `pending | approved | rejected | withdrawn` */
  status: string;
  submitted_by_id: number;
  submitted_at: number;
  /** JSON array of the automated pre-review checks' findings. */
  checks: Generated<string>;
  decided_by_id: number | null;
  decided_at: number | null;
  reason: string | null;
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
  /** The `app_versions.id` of `version` (0009; NULL on rows written before it). */
  installed_version_id: number | null;
  /** A stored preference only: updates apply at the next install call (A36). */
  auto_update: Generated<number>;
  updated_at: Generated<number>;
}

export interface AppTables {
  apps: AppsTable;
  app_versions: AppVersionsTable;
  app_working: AppWorkingTable;
  app_bundles: AppBundlesTable;
  app_bundle_files: AppBundleFilesTable;
  app_reviews: AppReviewsTable;
  user_apps: UserAppsTable;
}
