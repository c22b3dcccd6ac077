// The app status machine S1 (reference §Y S1; real-world-cli.md A20–A23): submit-review from DRAFT
// or REJECTED with at least one version (5 a day), the admin's approve (optionally releasing the
// candidate) and reject with a reason, unpublish, archive and unarchive. A transition runs as one
// UPDATE guarded by the state it was decided on, so two racing requests cannot both apply; every
// refusal names the state found and the command that moves on from it.
import type { Selectable } from "kysely";
import { NexusError } from "../core/errors.js";
import type { AppReviewsTable, AppStatus } from "../db/schema-apps.js";
import type { User } from "../stores/types.js";
import type { AppRow } from "./app-views.js";
import { currentBundle } from "./bundle-service.js";
import { type ReviewFinding, runPreReviewChecks } from "./pre-review.js";
import {
  type Db,
  ownedApp,
  type RegistryDeps,
  versionsOf,
  withinDailyLimit,
} from "./registry-deps.js";
import { releaseVersion } from "./version-service.js";

export type ReviewRow = Selectable<AppReviewsTable>;

/** What to run next from each state, for refusals. */
function nextStep(app: AppRow): string {
  const s = app.slug;
  switch (app.status) {
    case "DRAFT":
      return `submit it with \`anna-app apps submit-review ${s}\``;
    case "REJECTED":
      return `read review_message, fix it and run \`anna-app apps submit-review ${s}\``;
    case "PENDING_REVIEW":
      return "wait for an admin to approve or reject it";
    case "APPROVED":
      return `release a version with \`anna-app apps release <version>\``;
    case "PUBLISHED":
      return `it is live; \`anna-app apps unpublish ${s}\` takes it down`;
    case "ARCHIVED":
      return `run \`anna-app apps unarchive ${s} --yes\``;
  }
}

function refuse(app: AppRow, action: string, allowed: readonly AppStatus[]): never {
  throw new NexusError(
    "app_state",
    `cannot ${action} ${app.slug}: it is ${app.status} (${action} needs ${allowed.join(" or ")}); ${nextStep(app)}`,
    { details: { status: app.status, allowed: [...allowed] } },
  );
}

/** Moves `app` from one of `from` to `to` in one guarded UPDATE; refuses otherwise. */
async function transition(
  tx: Db,
  app: AppRow,
  action: string,
  from: readonly AppStatus[],
  to: AppStatus,
  set: Partial<Omit<AppRow, "id">>,
  now: number,
): Promise<void> {
  if (!from.includes(app.status)) refuse(app, action, from);
  const r = await tx
    .updateTable("apps")
    .set({ ...set, status: to, updated_at: now })
    .where("id", "=", app.id)
    .where("status", "=", app.status)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) {
    throw new NexusError(
      "app_state",
      `${app.slug} changed state while this ${action} ran; look again with \`anna-app apps status ${app.slug}\``,
    );
  }
}

export function appStatus(deps: RegistryDeps) {
  const { db, clock, limits } = deps;

  async function anyApp(id: number): Promise<AppRow> {
    const app = await db.selectFrom("apps").selectAll().where("id", "=", id).executeTakeFirst();
    if (!app) throw new NexusError("not_found", `no app with id ${id}`);
    return app;
  }

  async function pendingReview(tx: Db, appId: number): Promise<ReviewRow | undefined> {
    return tx
      .selectFrom("app_reviews")
      .selectAll()
      .where("app_id", "=", appId)
      .where("status", "=", "pending")
      .orderBy("id", "desc")
      .executeTakeFirst();
  }

  async function decide(
    tx: Db,
    appId: number,
    status: string,
    by: number | null,
    reason: string | null,
    now: number,
  ) {
    await tx
      .updateTable("app_reviews")
      .set({ status, decided_by_id: by, decided_at: now, reason })
      .where("app_id", "=", appId)
      .where("status", "=", "pending")
      .execute();
  }

  function requireAdmin(user: User): void {
    if (!user.isAdmin)
      throw new NexusError("admin_required", "only an admin can approve or reject apps");
  }

  return {
    async submitReview(
      user: User,
      appId: number,
    ): Promise<{ app: AppRow; review: ReviewRow; findings: ReviewFinding[] }> {
      const app = await ownedApp(db, user.id, appId);
      if (app.status !== "DRAFT" && app.status !== "REJECTED")
        refuse(app, "submit for review", ["DRAFT", "REJECTED"]);
      const candidate = (await versionsOf(db, app.id))[0];
      if (!candidate) {
        throw new NexusError(
          "app_state",
          `提交审核前需至少创建一个版本 (create at least one version before submitting for review): ${app.slug} has none; run \`anna-app apps publish\` or \`anna-app apps push\` then \`apps cut <version>\``,
          { details: { status: app.status, versions: 0 } },
        );
      }
      await withinDailyLimit(
        deps,
        `app-review:${user.id}`,
        limits.submissionsPerDay,
        "submitted an app for review",
      );
      const bundle = await currentBundle(db, app.id, candidate.id);
      const files =
        bundle?.status === "ready"
          ? await db
              .selectFrom("app_bundle_files")
              .selectAll()
              .where("bundle_id", "=", bundle.id)
              .execute()
          : [];
      const findings = await runPreReviewChecks(deps.checks, {
        db,
        blobs: deps.blobs,
        app,
        version: candidate,
        bundle: bundle?.status === "ready" ? { row: bundle, files } : null,
      });
      const now = clock.now();
      const review = await db.transaction().execute(async (tx) => {
        await transition(
          tx,
          app,
          "submit for review",
          ["DRAFT", "REJECTED"],
          "PENDING_REVIEW",
          { review_message: null },
          now,
        );
        return tx
          .insertInto("app_reviews")
          .values({
            app_id: app.id,
            version_id: candidate.id,
            status: "pending",
            submitted_by_id: user.id,
            submitted_at: now,
            checks: JSON.stringify(findings),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return { app: await anyApp(app.id), review, findings };
    },

    /** Admin: PENDING_REVIEW → APPROVED, or → PUBLISHED releasing the candidate (`publish`). */
    async approve(
      admin: User,
      appId: number,
      input: { publish: boolean; notes?: string | undefined },
    ) {
      requireAdmin(admin);
      const app = await anyApp(appId);
      if (app.status !== "PENDING_REVIEW") refuse(app, "approve", ["PENDING_REVIEW"]);
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        const review = await pendingReview(tx, app.id);
        const reviewed = {
          reviewed_at: now,
          reviewed_by_id: admin.id,
          review_message: input.notes ?? null,
        };
        await transition(tx, app, "approve", ["PENDING_REVIEW"], "APPROVED", reviewed, now);
        await decide(tx, app.id, "approved", admin.id, input.notes ?? null, now);
        if (input.publish) {
          const candidate =
            (review?.version_id != null
              ? (await versionsOf(tx, app.id)).find((v) => v.id === review.version_id)
              : undefined) ?? (await versionsOf(tx, app.id))[0];
          if (!candidate)
            throw new NexusError(
              "app_state",
              `${app.slug} has no version to release; approve without publish`,
            );
          await releaseVersion(tx, { ...app, status: "APPROVED" }, candidate, now);
        }
      });
      return anyApp(app.id);
    },

    async reject(admin: User, appId: number, reason: string) {
      requireAdmin(admin);
      const app = await anyApp(appId);
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        await transition(
          tx,
          app,
          "reject",
          ["PENDING_REVIEW"],
          "REJECTED",
          { reviewed_at: now, reviewed_by_id: admin.id, review_message: reason },
          now,
        );
        await decide(tx, app.id, "rejected", admin.id, reason, now);
      });
      return anyApp(app.id);
    },

    /** PUBLISHED → APPROVED: out of the store; installs keep their version. */
    async unpublish(user: User, appId: number) {
      const app = await ownedApp(db, user.id, appId);
      await db
        .transaction()
        .execute((tx) =>
          transition(tx, app, "unpublish", ["PUBLISHED"], "APPROVED", {}, clock.now()),
        );
      return anyApp(app.id);
    },

    /** Any live state → ARCHIVED: hidden from discovery, installs keep working; a pending review is withdrawn. */
    async archive(user: User, appId: number) {
      const app = await ownedApp(db, user.id, appId);
      const now = clock.now();
      const from: AppStatus[] = ["DRAFT", "PENDING_REVIEW", "APPROVED", "REJECTED", "PUBLISHED"];
      await db.transaction().execute(async (tx) => {
        await transition(tx, app, "archive", from, "ARCHIVED", { archived_at: now }, now);
        await decide(tx, app.id, "withdrawn", null, "archived by the developer", now);
      });
      return anyApp(app.id);
    },

    /**
     * ARCHIVED → APPROVED, as the Reference says, for an app a review approved before; one that
     * never passed review goes back to DRAFT, so archiving cannot skip review.
     */
    async unarchive(user: User, appId: number) {
      const app = await ownedApp(db, user.id, appId);
      const approved = await db
        .selectFrom("app_reviews")
        .select("id")
        .where("app_id", "=", app.id)
        .where("status", "=", "approved")
        .executeTakeFirst();
      await db
        .transaction()
        .execute((tx) =>
          transition(
            tx,
            app,
            "unarchive",
            ["ARCHIVED"],
            approved ? "APPROVED" : "DRAFT",
            { archived_at: null },
            clock.now(),
          ),
        );
      return anyApp(app.id);
    },
  };
}

export type AppStatusMachine = ReturnType<typeof appStatus>;
