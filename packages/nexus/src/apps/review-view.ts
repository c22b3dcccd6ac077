// What a reviewer and an author see of a submission: the review queue (pending, oldest first),
// the reviewer's page of one app (the candidate version's manifest diffed against the live one,
// the tools it bundles and requires, the Host API and permissions it asks for, its bundle, and
// the stored pre-review findings), and the author's page (the same findings and the reviewer's
// notes). Read-only: submit, approve and reject write these rows elsewhere.
import { type ExecutaRef, normalizeExecutaRef } from "@anna-ai/app-schema";
import type { Kysely, Selectable } from "kysely";
import type { AppReviewsTable, AppsTable, AppVersionsTable } from "../db/schema-apps.js";
import type { Database } from "../db/schema.js";
import { jsonDiff } from "./manifest-diff.js";
import type { ReviewFinding } from "./pre-review.js";
import { readyBundleOf } from "./served-bundle.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function parseObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? "") as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The stored findings; a row that is not an array of findings shows as none. */
export function storedFindings(
  review: Pick<Selectable<AppReviewsTable>, "checks">,
): ReviewFinding[] {
  try {
    const v = JSON.parse(review.checks) as unknown;
    return Array.isArray(v) ? (v as ReviewFinding[]) : [];
  } catch {
    return [];
  }
}

function findingCounts(findings: readonly ReviewFinding[]) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.severity in counts) counts[f.severity] += 1;
  return counts;
}

export interface QueuePage {
  items: Record<string, unknown>[];
  total: number;
  page: number;
  page_size: number;
}

/** Pending reviews, oldest submission first (ties by id), one page of them. */
export async function reviewQueue(
  db: Kysely<Database>,
  page: number,
  pageSize: number,
): Promise<QueuePage> {
  const { total } = await db
    .selectFrom("app_reviews")
    .select((eb) => eb.fn.countAll<string>().as("total"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("app_reviews")
    .innerJoin("apps", "apps.id", "app_reviews.app_id")
    .leftJoin("app_versions", "app_versions.id", "app_reviews.version_id")
    .select([
      "app_reviews.id as review_id",
      "app_reviews.submitted_at",
      "app_reviews.submitted_by_id",
      "app_reviews.checks",
      "apps.id as app_id",
      "apps.slug",
      "apps.handle",
      "apps.name",
      "apps.status as app_status",
      "apps.latest_version_id",
      "app_versions.version",
    ])
    .where("app_reviews.status", "=", "pending")
    .orderBy("app_reviews.submitted_at", "asc")
    .orderBy("app_reviews.id", "asc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    items: rows.map((r) => ({
      review_id: r.review_id,
      app_id: r.app_id,
      slug: r.slug,
      handle: r.handle,
      name: r.name,
      status: r.app_status,
      version: r.version,
      is_update: r.latest_version_id !== null,
      submitted_at: iso(r.submitted_at),
      submitted_by_id: r.submitted_by_id,
      findings: findingCounts(storedFindings(r)),
    })),
    total: Number(total),
    page,
    page_size: pageSize,
  };
}

export async function appRow(
  db: Kysely<Database>,
  appId: number,
): Promise<Selectable<AppsTable> | undefined> {
  return db.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirst();
}

/** The app's pending review, else its latest one. */
export function currentReview(
  db: Kysely<Database>,
  appId: number,
): Promise<Selectable<AppReviewsTable> | undefined> {
  return db
    .selectFrom("app_reviews")
    .selectAll()
    .where("app_id", "=", appId)
    .orderBy((eb) => eb.case().when("status", "=", "pending").then(0).else(1).end())
    .orderBy("submitted_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}

function versionById(db: Kysely<Database>, id: number | null) {
  return id === null
    ? Promise.resolve(undefined)
    : db.selectFrom("app_versions").selectAll().where("id", "=", id).executeTakeFirst();
}

function reviewSummary(review: Selectable<AppReviewsTable>) {
  return {
    id: review.id,
    status: review.status,
    version_id: review.version_id,
    submitted_at: iso(review.submitted_at),
    submitted_by_id: review.submitted_by_id,
    decided_at: iso(review.decided_at),
    decided_by_id: review.decided_by_id,
    notes: review.reason,
  };
}

function versionSummary(v: Selectable<AppVersionsTable>) {
  return {
    id: v.id,
    version: v.version,
    source: v.source,
    changelog: v.changelog,
    created_at: iso(v.created_at),
    published_at: iso(v.published_at),
  };
}

/** What the manifest asks for: Host API namespaces and methods, permissions, capabilities. */
function requested(manifest: Record<string, unknown>) {
  const ui = (manifest.ui ?? {}) as { host_api?: Record<string, unknown> | null };
  const hostApi = ui.host_api ?? {};
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  return {
    host_api: hostApi,
    host_api_namespaces: Object.keys(hostApi).sort(),
    permissions: strings(manifest.permissions),
    host_capabilities: strings(manifest.host_capabilities),
  };
}

/** The tools the version declares, with each `bundled:<handle>` resolved to its minted id. */
function tools(version: Selectable<AppVersionsTable>, manifest: Record<string, unknown>) {
  const refs = (v: unknown): string[] =>
    Array.isArray(v) ? v.map((r) => normalizeExecutaRef(r as ExecutaRef).tool_id) : [];
  const bundled = parseObject(version.tool_ids);
  let frozen: unknown = [];
  try {
    frozen = JSON.parse(version.frozen_executas) as unknown;
  } catch {
    // Shown as none.
  }
  return {
    required: refs(manifest.required_executas),
    optional: refs(manifest.optional_executas),
    bundled: Object.entries(bundled).map(([handle, toolId]) => ({ handle, tool_id: toolId })),
    frozen_executas: Array.isArray(frozen) ? frozen : [],
  };
}

const added = (now: readonly string[], before: readonly string[]) =>
  now.filter((x) => !before.includes(x));

/** The reviewer's page of one app; `undefined` when the app does not exist. */
export async function reviewerView(db: Kysely<Database>, appId: number) {
  const app = await appRow(db, appId);
  if (app === undefined) return undefined;
  const review = await currentReview(db, appId);
  const candidate = review
    ? await versionById(db, review.version_id)
    : await db
        .selectFrom("app_versions")
        .selectAll()
        .where("app_id", "=", appId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
  const live = await versionById(db, app.latest_version_id);
  const candidateManifest = parseObject(candidate?.manifest);
  const liveManifest = parseObject(live?.manifest);
  const asked = requested(candidateManifest);
  const before = requested(liveManifest);
  const bundle = candidate ? await readyBundleOf(db, candidate.id) : undefined;
  const findings = review ? storedFindings(review) : [];
  return {
    app: {
      id: app.id,
      slug: app.slug,
      handle: app.handle,
      name: app.name,
      status: app.status,
      owner_id: app.owner_id,
      review_message: app.review_message,
    },
    review: review ? reviewSummary(review) : null,
    candidate: candidate ? { ...versionSummary(candidate), manifest: candidateManifest } : null,
    live: live ? versionSummary(live) : null,
    // Against `{}` for a first submission: everything is new.
    manifest_diff: jsonDiff(liveManifest, candidateManifest),
    tools: candidate ? tools(candidate, candidateManifest) : null,
    requested: {
      ...asked,
      new_host_api_namespaces: added(asked.host_api_namespaces, before.host_api_namespaces),
      new_permissions: added(asked.permissions, before.permissions),
    },
    bundle: bundle
      ? {
          id: bundle.id,
          entry_path: bundle.entry_path,
          file_count: bundle.file_count,
          total_size_bytes: Number(bundle.total_size_bytes),
          external_origins: JSON.parse(bundle.external_origins) as unknown,
          finalized_at: iso(bundle.finalized_at),
        }
      : null,
    checks: { counts: findingCounts(findings), findings },
  };
}

/** The author's page: the status, the findings and the reviewer's notes. */
export async function authorView(
  db: Kysely<Database>,
  app: Selectable<AppsTable>,
): Promise<Record<string, unknown>> {
  const review = await currentReview(db, app.id);
  const candidate = review ? await versionById(db, review.version_id) : undefined;
  const findings = review ? storedFindings(review) : [];
  return {
    app_id: app.id,
    slug: app.slug,
    status: app.status,
    review_message: app.review_message,
    reviewed_at: iso(app.reviewed_at),
    review: review ? reviewSummary(review) : null,
    version: candidate?.version ?? null,
    checks: { counts: findingCounts(findings), findings },
  };
}
