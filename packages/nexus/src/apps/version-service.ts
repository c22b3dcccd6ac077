// App versions (inventory A7, A24–A29, R2; real-world-cli.md A6–A8): immutable SemVer rows, each
// greater than every existing one; a retried create with the same `content_hash` is answered from
// the row it made (`x-anna-idempotent: hit`, with its `id`); releasing one needs an APPROVED or
// PUBLISHED app (S1 auto-promotes to PUBLISHED) and a finalized bundle when the manifest has a UI,
// and `is_latest` is always the highest released SemVer.
import { createHash } from "node:crypto";
import { appVersionProblem, isAppVersion } from "@anna-ai/app-schema";
import { canonicalJson } from "@anna-ai/executa-host";
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import { uniqueViolation } from "../stores/sql-stores.js";
import type { AppRow, VersionRow } from "./app-views.js";
import { bundleEntryOf, requireValidManifest } from "./manifest-gate.js";
import { needsReleaseReview, requestReleaseReview } from "./release-request.js";
import {
  type Db,
  latestPublished,
  notArchived,
  ownedApp,
  ownedVersion,
  type RegistryDeps,
  versionsOf,
} from "./registry-deps.js";

export interface Answer<T> {
  value: T;
  hit: boolean;
}

/** The CLI's `manifestHash` (§3.2), used when a client sends no `content_hash`. */
export function manifestHash(version: string, manifest: unknown): string {
  return createHash("sha256").update(canonicalJson({ version, manifest }), "utf8").digest("hex");
}

function bumpHint(version: string): string {
  return `bump with \`--bump patch\` (or set a version above ${version} in app.json)`;
}

/** Why `version` cannot be added next to `existing`, as a refusal that names the next step. */
export function refuseVersion(app: AppRow, version: string, existing: readonly VersionRow[]): void {
  const problem = appVersionProblem(
    version,
    existing.map((v) => v.version),
  );
  if (problem === undefined) return;
  if (!isAppVersion(version)) throw new NexusError("validation_failed", `version: ${problem}`);
  const largest = existing[0]?.version ?? version;
  throw new NexusError(
    existing.some((v) => v.version === version) ? "version_exists" : "version_not_greater",
    `${app.slug}: ${problem}; ${bumpHint(largest)}`,
    { details: { version, latest: largest } },
  );
}

/** S1's release guard, with the spec's own message (A11) and the next command. */
export function requireReleasable(app: AppRow): void {
  if (app.status === "APPROVED" || app.status === "PUBLISHED") return;
  const next: Record<string, string> = {
    DRAFT: `submit it for review first: \`anna-app apps submit-review ${app.slug}\``,
    REJECTED: `fix what the review said and submit again: \`anna-app apps submit-review ${app.slug}\``,
    PENDING_REVIEW: "it is awaiting admin approval; release once it is APPROVED",
    ARCHIVED: `unarchive it first: \`anna-app apps unarchive ${app.slug} --yes\``,
  };
  throw new NexusError(
    "app_state",
    `App 必须先通过审核（APPROVED）后才能发布版本 (the app must pass review before a version can be released): ${app.slug} is ${app.status}; ${next[app.status] ?? ""}`,
    { details: { status: app.status } },
  );
}

/**
 * Releases `v` inside `tx`: `published_at`, `is_latest` = the highest released SemVer, the app
 * PUBLISHED and `first_published_at` set once. Releasing a released version changes nothing.
 */
export async function releaseVersion(
  tx: Db,
  app: AppRow,
  v: VersionRow,
  now: number,
): Promise<VersionRow> {
  if (bundleEntryOf(JSON.parse(v.manifest)) !== undefined) {
    const bundle = await tx
      .selectFrom("app_bundles")
      .select("id")
      .where("version_id", "=", v.id)
      .where("status", "=", "ready")
      .executeTakeFirst();
    if (!bundle) {
      throw new NexusError(
        "bundle_incomplete",
        `version ${v.version} declares ui.bundle but has no finalized bundle; upload it (\`anna-app apps publish\` does) before releasing`,
        { details: { version: v.version } },
      );
    }
  }
  const released = v.published_at === null ? { ...v, published_at: now } : v;
  if (v.published_at === null) {
    await tx
      .updateTable("app_versions")
      .set({ published_at: now })
      .where("id", "=", v.id)
      .execute();
  }
  const all = (await versionsOf(tx, app.id)).map((x) => (x.id === v.id ? released : x));
  const latest = latestPublished(all);
  await tx
    .updateTable("apps")
    .set({
      status: "PUBLISHED",
      latest_version_id: latest?.id ?? null,
      first_published_at: app.first_published_at ?? now,
      updated_at: now,
    })
    .where("id", "=", app.id)
    .execute();
  return released;
}

export function versionService(deps: RegistryDeps) {
  const { db, clock } = deps;

  return {
    async list(user: User, appId: number) {
      const app = await ownedApp(db, user.id, appId);
      return { app, versions: await versionsOf(db, app.id) };
    },

    async create(
      user: User,
      appId: number,
      input: { version: string; changelog?: string | undefined; manifest: unknown },
      contentHash: string | undefined,
    ): Promise<Answer<VersionRow>> {
      const app = await ownedApp(db, user.id, appId);
      const hash = contentHash ?? manifestHash(input.version, input.manifest);
      const decide = (existing: VersionRow[]): VersionRow | undefined => {
        const same = existing.find((v) => v.version === input.version);
        if (same) {
          if (same.content_hash === hash) return same;
          throw new NexusError(
            "version_exists",
            `version ${input.version} of ${app.slug} already exists with other content; ${bumpHint(input.version)}`,
            { details: { version: input.version, version_id: same.id } },
          );
        }
        return undefined;
      };
      const prior = decide(await versionsOf(db, app.id));
      if (prior) return { value: prior, hit: true };
      notArchived(app);
      const manifest = requireValidManifest(input.manifest, `version ${input.version}`);
      refuseVersion(app, input.version, await versionsOf(db, app.id));
      try {
        const value = await db
          .insertInto("app_versions")
          .values({
            app_id: app.id,
            version: input.version,
            name: app.name,
            manifest: JSON.stringify(manifest),
            tool_ids: "{}",
            changelog: input.changelog ?? null,
            content_hash: hash,
            source: "publish",
            created_at: clock.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { value, hit: false };
      } catch (err) {
        // A concurrent retry made it first: answer as that retry was answered.
        if (uniqueViolation(err) === undefined) throw err;
        const raced = decide(await versionsOf(db, app.id));
        if (raced) return { value: raced, hit: true };
        throw err;
      }
    },

    async publish(user: User, appId: number, versionId: number) {
      const app = await ownedApp(db, user.id, appId);
      const v = await ownedVersion(db, app, versionId);
      requireReleasable(app);
      if (needsReleaseReview(deps, app, v)) {
        return { app, version: await requestReleaseReview(db, app, v, clock.now()) };
      }
      const released = await db
        .transaction()
        .execute((tx) => releaseVersion(tx, app, v, clock.now()));
      const after = await ownedApp(db, user.id, appId);
      return { app: after, version: released };
    },
  };
}

export type VersionService = ReturnType<typeof versionService>;
