// The registry's rows as the published CLI reads them (real-world-cli.md §3): a JSON-number `id`,
// the upper-case `status`, ISO timestamps, versions with `is_latest`, bundles with both the
// version (`status: bundle_ready`) and the working-draft (`bundle_status: ready`) spellings.
import type { Selectable } from "kysely";
import type { AppBundlesTable, AppsTable, AppVersionsTable } from "../db/schema-apps.js";

export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

export type AppRow = Selectable<AppsTable>;
export type VersionRow = Selectable<AppVersionsTable>;
export type BundleRow = Selectable<AppBundlesTable>;

export function appView(app: AppRow, latestVersion?: string | null) {
  return {
    id: app.id,
    slug: app.slug,
    handle: app.handle,
    name: app.name,
    status: app.status,
    category: app.category,
    tagline: app.tagline,
    description: app.description,
    logo_url: app.logo_url,
    cover_url: app.cover_url,
    screenshots: JSON.parse(app.screenshots) as string[],
    homepage_url: app.homepage_url,
    support_url: app.support_url,
    privacy_url: app.privacy_url,
    is_dev: app.is_dev === 1,
    // Live in the store only while PUBLISHED; every other state is the owner's alone.
    visibility: app.status === "PUBLISHED" ? "public" : "private",
    is_published: app.status === "PUBLISHED",
    review_message: app.review_message,
    reviewed_at: iso(app.reviewed_at),
    latest_version_id: app.latest_version_id,
    latest_version: latestVersion ?? null,
    install_count: app.install_count,
    first_published_at: iso(app.first_published_at),
    archived_at: iso(app.archived_at),
    created_at: iso(app.created_at),
    updated_at: iso(app.updated_at),
  };
}

export function versionView(v: VersionRow, latestId: number | null) {
  return {
    id: v.id,
    app_id: v.app_id,
    version: v.version,
    name: v.name,
    changelog: v.changelog,
    manifest: JSON.parse(v.manifest) as unknown,
    content_hash: v.content_hash,
    frozen_executas: JSON.parse(v.frozen_executas) as unknown[],
    source: v.source,
    is_latest: v.id === latestId,
    published_at: iso(v.published_at),
    release_review_state: v.release_review_state,
    release_review_message: v.release_review_message,
    release_reviewed_at: iso(v.release_reviewed_at),
    created_at: iso(v.created_at),
  };
}

export function bundleView(b: BundleRow) {
  const ready = b.status === "ready";
  return {
    id: b.id,
    status: ready ? "bundle_ready" : "draft",
    bundle_status: ready ? "ready" : "staging",
    bundle_format: b.bundle_format,
    entry_path: b.entry_path,
    external_origins: JSON.parse(b.external_origins) as string[],
    file_count: b.file_count,
    total_size_bytes: b.total_size_bytes,
    sha256_manifest: b.sha256_manifest,
    object_prefix: b.object_prefix,
    created_at: iso(b.created_at),
    finalized_at: iso(b.finalized_at),
  };
}
