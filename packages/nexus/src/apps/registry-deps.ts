// What every part of the app registry works with, and the look-ups they share: the caller's own
// app (another developer's is indistinguishable from a missing one), its versions in SemVer order,
// and the `is_latest` rule (the highest published SemVer).
import { compareAppVersions } from "@anna-ai/app-schema";
import type { Kysely } from "kysely";
import type { RateLimiter } from "../auth/rate-limit.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Clock } from "../core/clock.js";
import type { AppLimits } from "../core/config.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { ExecutaHub } from "../hub/executa-hub.js";
import type { AppRow, VersionRow } from "./app-views.js";
import type { PreReviewCheck } from "./pre-review.js";

export interface RegistryDeps {
  db: Kysely<Database>;
  clock: Clock;
  limits: AppLimits;
  rateLimiter: RateLimiter;
  /** Where bundle files, logos and screenshots go; uploads answer 503 without one. */
  blobs: BlobStore | undefined;
  /** Cut freezes the owner's bundled executas through it. */
  hub: ExecutaHub | undefined;
  /** The pre-review checks submit-review runs (apps/checks/index.ts). */
  checks: readonly PreReviewCheck[];
}

export type Db = Kysely<Database>;

export async function ownedApp(db: Db, ownerId: number, id: number): Promise<AppRow> {
  const app = await db
    .selectFrom("apps")
    .selectAll()
    .where("id", "=", id)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  if (!app) {
    throw new NexusError(
      "not_found",
      `no app with id ${id} among yours; list them with \`anna-app apps list\``,
    );
  }
  return app;
}

/** Newest first by SemVer. */
export async function versionsOf(db: Db, appId: number): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom("app_versions")
    .selectAll()
    .where("app_id", "=", appId)
    .execute();
  return rows.sort((a, b) => compareAppVersions(b.version, a.version));
}

export async function ownedVersion(db: Db, app: AppRow, versionId: number): Promise<VersionRow> {
  const v = await db
    .selectFrom("app_versions")
    .selectAll()
    .where("id", "=", versionId)
    .where("app_id", "=", app.id)
    .executeTakeFirst();
  if (!v) {
    throw new NexusError(
      "not_found",
      `${app.slug} has no version with id ${versionId}; see \`anna-app apps versions ${app.slug}\``,
    );
  }
  return v;
}

/** The `is_latest` version: the highest published SemVer, or null when none is published. */
export function latestPublished(versions: readonly VersionRow[]): VersionRow | undefined {
  return [...versions]
    .filter((v) => v.published_at !== null)
    .sort((a, b) => compareAppVersions(b.version, a.version))[0];
}

/** Refuses a write to an archived app, naming the way back. */
export function notArchived(app: AppRow): void {
  if (app.status === "ARCHIVED") {
    throw new NexusError(
      "app_state",
      `${app.slug} is ARCHIVED and cannot change; run \`anna-app apps unarchive ${app.slug} --yes\` first`,
      { details: { status: app.status } },
    );
  }
}

const DAY_MS = 86_400_000;

/** R5's per-developer daily limits (creates, submissions): counted, and refused past `limit`. */
export async function withinDailyLimit(
  deps: RegistryDeps,
  key: string,
  limit: number,
  done: string,
): Promise<void> {
  const wait = await deps.rateLimiter.hit(key, limit, DAY_MS);
  if (wait > 0) {
    throw new NexusError(
      "rate_limited",
      `you ${done} ${limit} times today, the daily limit; try again in ${Math.ceil(wait / 3600)} h`,
      { retryAfterS: wait },
    );
  }
}

export function requireBlobs(deps: RegistryDeps): BlobStore {
  if (!deps.blobs) {
    throw new NexusError("unavailable", "this server has no blob store, so it cannot take uploads");
  }
  return deps.blobs;
}
