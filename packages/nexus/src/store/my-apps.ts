// What a user has: their installed apps (archived ones included: they keep working, A37) with
// whether an update waits for the next install call (A36), and their grants for one app as the
// published CLI's `apps grants` prints them (real-world-cli.md A24).
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { iso } from "../http/views.js";
import { isInstallable } from "./catalogue.js";
import { parseManifest, requestedBy } from "./manifest-refs.js";

const grant = (json: string | null) => (json === null ? null : (JSON.parse(json) as object));

function installedApps(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom("user_apps")
    .innerJoin("apps", "apps.id", "user_apps.app_id")
    .leftJoin("app_versions as lv", "lv.id", "apps.latest_version_id")
    .select([
      "apps.id",
      "apps.slug",
      "apps.handle",
      "apps.name",
      "apps.status",
      "apps.logo_url",
      "apps.tagline",
      "user_apps.version",
      "user_apps.enabled",
      "user_apps.auto_update",
      "user_apps.web_grant",
      "user_apps.credentials_grant",
      "user_apps.installed_at",
      "user_apps.updated_at",
      "lv.version as latest_version",
    ])
    .where("user_apps.user_id", "=", userId);
}

type InstalledRow = Awaited<ReturnType<ReturnType<typeof installedApps>["execute"]>>[number];

function myAppView(r: InstalledRow) {
  return {
    id: r.id,
    slug: r.slug,
    handle: r.handle,
    name: r.name,
    tagline: r.tagline,
    logo_url: r.logo_url,
    status: r.status,
    installed_version: r.version,
    latest_version: r.latest_version,
    // An archived app takes no updates, so none is ever "available" for it.
    update_available:
      isInstallable(r.status) && r.latest_version !== null && r.latest_version !== r.version,
    enabled: r.enabled === 1,
    auto_update: r.auto_update === 1,
    web_grant: grant(r.web_grant),
    credentials_grant: grant(r.credentials_grant),
    installed_at: iso(r.installed_at),
    updated_at: iso(r.updated_at),
  };
}

export type MyAppView = ReturnType<typeof myAppView>;

export function myApps(db: Kysely<Database>) {
  return {
    async list(userId: number): Promise<MyAppView[]> {
      const rows = await installedApps(db, userId)
        .orderBy("user_apps.installed_at")
        .orderBy("apps.id")
        .execute();
      return rows.map(myAppView);
    },

    async get(userId: number, slug: string): Promise<MyAppView | undefined> {
      const row = await installedApps(db, userId).where("apps.slug", "=", slug).executeTakeFirst();
      return row && myAppView(row);
    },

    /**
     * The caller's grants for an app they own, have installed, or can find by slug, with what
     * the version they would run asks for; undefined when the app is not theirs to see.
     */
    async grants(userId: number, appId: number) {
      const app = await db
        .selectFrom("apps")
        .select(["id", "slug", "handle", "status", "owner_id", "latest_version_id"])
        .where("id", "=", appId)
        .executeTakeFirst();
      if (!app) return undefined;
      const mine = await installedApps(db, userId).where("apps.id", "=", appId).executeTakeFirst();
      const visible =
        app.owner_id === userId ||
        mine !== undefined ||
        (isInstallable(app.status) && app.latest_version_id !== null);
      if (!visible) return undefined;
      const version = await db
        .selectFrom("app_versions")
        .select(["version", "manifest"])
        .where("app_id", "=", appId)
        .$call((q) =>
          mine
            ? q.where("version", "=", mine.version)
            : q.where("id", "=", app.latest_version_id ?? -1),
        )
        .executeTakeFirst();
      const manifest = version ? parseManifest(version.manifest) : {};
      return {
        app_id: app.id,
        slug: app.slug,
        handle: app.handle,
        installed: mine !== undefined,
        enabled: mine ? mine.enabled === 1 : null,
        version: version?.version ?? null,
        web_grant: mine ? grant(mine.web_grant) : null,
        credentials_grant: mine ? grant(mine.credentials_grant) : null,
        requested: requestedBy(manifest),
      };
    },
  };
}

export type MyApps = ReturnType<typeof myApps>;
