// The admin's side of release review (spec 8189–8191; the developer's request is in
// release-request.ts): the queue of pending releases with each candidate's manifest diff against
// the live version, approve (releases it as `apps release` would) and reject with a reason. Each
// decision is one UPDATE guarded by `pending`, so two admins cannot both decide.
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import type { VersionRow } from "./app-views.js";
import { jsonDiff } from "./manifest-diff.js";
import { type Db, type RegistryDeps, versionsOf } from "./registry-deps.js";
import { releaseVersion, requireReleasable } from "./version-service.js";

import type { ReleaseReviewState } from "./release-request.js";
function requireAdmin(user: User): void {
  if (!user.isAdmin) {
    throw new NexusError(
      "admin_required",
      "only a platform admin can decide a release review; an operator grants it with `anna-nexus admin create-user --admin`",
    );
  }
}

export interface ReleaseQueueItem {
  app_id: number;
  slug: string;
  name: string;
  app_status: string;
  version_id: number;
  version: string;
  changelog: string | null;
  requested_at: string | null;
  live_version: string | null;
  /** The candidate's manifest against the live one's. */
  manifest_diff: ReturnType<typeof jsonDiff>;
}

const isoOf = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function releaseReviews(deps: RegistryDeps) {
  const { db, clock } = deps;

  async function pendingVersion(appId: number, versionId: number) {
    const app = await db.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirst();
    if (!app) throw new NexusError("not_found", `no app with id ${appId}`);
    const v = (await versionsOf(db, app.id)).find((x) => x.id === versionId);
    if (!v) {
      throw new NexusError("not_found", `${app.slug} has no version with id ${versionId}`);
    }
    if (v.release_review_state !== "pending") {
      throw new NexusError(
        "app_state",
        `version ${v.version} of ${app.slug} is not awaiting release review (release_review_state is ${String(v.release_review_state)}); see the queue at GET /api/v1/super-admin/apps/release-queue`,
        { details: { release_review_state: v.release_review_state } },
      );
    }
    return { app, v };
  }

  /** Moves `v` out of `pending` inside `tx`, refusing when another decision came first. */
  async function decide(
    tx: Db,
    v: VersionRow,
    to: ReleaseReviewState,
    by: User,
    note: string | null,
  ) {
    const r = await tx
      .updateTable("app_versions")
      .set({
        release_review_state: to,
        release_reviewed_at: clock.now(),
        release_reviewed_by_id: by.id,
        release_review_message: note,
      })
      .where("id", "=", v.id)
      .where("release_review_state", "=", "pending")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) {
      throw new NexusError(
        "app_state",
        `version ${v.version} was decided by someone else while this ran; reload the release queue`,
      );
    }
  }

  /** The app and version as they are once a decision committed. */
  async function afterDecision(appId: number, versionId: number) {
    const [app, version] = await Promise.all([
      db.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirstOrThrow(),
      db
        .selectFrom("app_versions")
        .selectAll()
        .where("id", "=", versionId)
        .executeTakeFirstOrThrow(),
    ]);
    return { app, version };
  }

  return {
    /** Pending releases across all apps, oldest request first. */
    async queue(admin: User, page: number, pageSize: number) {
      requireAdmin(admin);
      const pending = await db
        .selectFrom("app_versions")
        .innerJoin("apps", "apps.id", "app_versions.app_id")
        .selectAll("app_versions")
        .select(["apps.slug", "apps.status as app_status", "apps.latest_version_id"])
        .where("app_versions.release_review_state", "=", "pending")
        .orderBy("app_versions.release_requested_at", "asc")
        .orderBy("app_versions.id", "asc")
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const { total } = await db
        .selectFrom("app_versions")
        .select((eb) => eb.fn.countAll<string>().as("total"))
        .where("release_review_state", "=", "pending")
        .executeTakeFirstOrThrow();
      const items: ReleaseQueueItem[] = [];
      for (const row of pending) {
        const live =
          row.latest_version_id === null
            ? undefined
            : await db
                .selectFrom("app_versions")
                .select(["version", "manifest"])
                .where("id", "=", row.latest_version_id)
                .executeTakeFirst();
        items.push({
          app_id: row.app_id,
          slug: row.slug,
          name: row.name,
          app_status: row.app_status,
          version_id: row.id,
          version: row.version,
          changelog: row.changelog,
          requested_at: isoOf(row.release_requested_at),
          live_version: live?.version ?? null,
          manifest_diff: jsonDiff(
            live ? (JSON.parse(live.manifest) as unknown) : {},
            JSON.parse(row.manifest) as unknown,
          ),
        });
      }
      return { items, page, page_size: pageSize, total: Number(total) };
    },

    /** Admin: pending → approved, releasing the version as `apps release` would have. */
    async approve(admin: User, appId: number, versionId: number, notes: string | undefined) {
      requireAdmin(admin);
      const { app, v } = await pendingVersion(appId, versionId);
      requireReleasable(app);
      await db.transaction().execute(async (tx) => {
        await decide(tx, v, "approved", admin, notes ?? null);
        await releaseVersion(tx, app, v, clock.now());
      });
      return afterDecision(app.id, v.id);
    },

    /** Admin: pending → rejected with the reason the developer reads on the version. */
    async reject(admin: User, appId: number, versionId: number, reason: string) {
      requireAdmin(admin);
      const { app, v } = await pendingVersion(appId, versionId);
      await db.transaction().execute((tx) => decide(tx, v, "rejected", admin, reason));
      return afterDecision(app.id, v.id);
    },
  };
}

export type ReleaseReviews = ReturnType<typeof releaseReviews>;
