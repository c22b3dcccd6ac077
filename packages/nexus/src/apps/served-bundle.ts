// Which bundle file a `/anna-apps/{slug}/{version}/{path}` request names, and who may load it.
// A released version of a published app is public, as the spec's URL carries no credential
// (L5923). Anything else (a draft, a version under review, a rejected or archived app) is
// served only to its owner, an admin, and users who have that version installed, identified by
// their session cookie or PAT.
import type { Kysely, Selectable } from "kysely";
import type {
  AppBundleFilesTable,
  AppBundlesTable,
  AppsTable,
  AppVersionsTable,
} from "../db/schema-apps.js";
import type { Database } from "../db/schema.js";
import type { User } from "../stores/types.js";

/** The version segment that names the app's live (`is_latest`) version. */
export const LATEST = "latest";

export interface ServedVersion {
  app: Selectable<AppsTable>;
  version: Selectable<AppVersionsTable>;
  /** The version's finalized bundle. */
  bundle: Selectable<AppBundlesTable>;
}

/** The app, version and ready bundle the URL names; `undefined` when any is missing. */
export async function findServedVersion(
  db: Kysely<Database>,
  slug: string,
  versionRef: string,
): Promise<ServedVersion | undefined> {
  const app = await db.selectFrom("apps").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (app === undefined) return undefined;
  let query = db.selectFrom("app_versions").selectAll().where("app_id", "=", app.id);
  if (versionRef === LATEST) {
    if (app.latest_version_id === null) return undefined;
    query = query.where("id", "=", app.latest_version_id);
  } else {
    query = query.where("version", "=", versionRef);
  }
  const version = await query.executeTakeFirst();
  if (version === undefined) return undefined;
  const bundle = await readyBundleOf(db, version.id);
  return bundle && { app, version, bundle };
}

/** The version's finalized bundle (the newest, should there be several). */
export function readyBundleOf(
  db: Kysely<Database>,
  versionId: number,
): Promise<Selectable<AppBundlesTable> | undefined> {
  return db
    .selectFrom("app_bundles")
    .selectAll()
    .where("version_id", "=", versionId)
    .where("status", "=", "ready")
    .orderBy("finalized_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}

export function bundleFileRow(
  db: Kysely<Database>,
  bundleId: number,
  relativePath: string,
): Promise<Selectable<AppBundleFilesTable> | undefined> {
  return db
    .selectFrom("app_bundle_files")
    .selectAll()
    .where("bundle_id", "=", bundleId)
    .where("relative_path", "=", relativePath)
    .executeTakeFirst();
}

/** Served to anyone: a released version of a published app. */
export function isPublicVersion(served: Pick<ServedVersion, "app" | "version">): boolean {
  return served.app.status === "PUBLISHED" && served.version.published_at !== null;
}

/** The owner, an admin, or a user with this version installed may load any version's bundle. */
export async function mayLoadPrivately(
  db: Kysely<Database>,
  user: User | undefined,
  served: Pick<ServedVersion, "app" | "version">,
): Promise<boolean> {
  if (user === undefined) return false;
  if (user.isAdmin || served.app.owner_id === user.id) return true;
  const installed = await db
    .selectFrom("user_apps")
    .select("version")
    .where("user_id", "=", user.id)
    .where("app_id", "=", served.app.id)
    .executeTakeFirst();
  return installed?.version === served.version.version;
}
