// Release review, the developer's side (spec 8189–8191, real-world-cli.md A8): on a server
// configured for it (`appLimits.releaseReview`), releasing a new version of an app that has been
// live parks the version as `release_review_state: pending` instead of releasing it; the live
// version keeps serving (latest_version_id is untouched) until an admin decides
// (release-review.ts).
import { NexusError } from "../core/errors.js";
import type { AppRow, VersionRow } from "./app-views.js";
import type { Db, RegistryDeps } from "./registry-deps.js";

export type ReleaseReviewState = "pending" | "approved" | "rejected";

/** A release needs review when the server asks for it and the app has been live before. */
export function needsReleaseReview(deps: RegistryDeps, app: AppRow, v: VersionRow): boolean {
  // first_published_at, not status: unpublishing and releasing must not skip the review.
  return deps.limits.releaseReview && app.first_published_at !== null && v.published_at === null;
}

/** Developer: parks `v` for review; asking again while pending answers the same pending row. */
export async function requestReleaseReview(
  db: Db,
  app: AppRow,
  v: VersionRow,
  now: number,
): Promise<VersionRow> {
  if (v.release_review_state === "pending") return v;
  if (v.release_review_state === "rejected") {
    throw new NexusError(
      "release_rejected",
      `version ${v.version} of ${app.slug} was rejected in release review (${v.release_review_message ?? "no reason given"}); fix it and release a new version with \`anna-app apps publish --bump patch\``,
      { details: { version: v.version, release_review_state: "rejected" } },
    );
  }
  const r = await db
    .updateTable("app_versions")
    .set({ release_review_state: "pending", release_requested_at: now })
    .where("id", "=", v.id)
    .where("published_at", "is", null)
    .where("release_review_state", "is", null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) {
    throw new NexusError(
      "app_state",
      `version ${v.version} of ${app.slug} changed while it was released; look again with \`anna-app apps versions ${app.slug}\``,
    );
  }
  return { ...v, release_review_state: "pending", release_requested_at: now };
}
