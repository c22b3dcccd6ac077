// Who a window call is for, answered from the database: the app version a window runs (its
// manifest and tool ids), the user's grants for that app, and the user's other installed apps.
// These are app-core's tenancy interfaces over the minimal catalogue of migration 0004 (`apps`,
// `app_versions`, `user_apps`); the registry extends those tables and keeps these answers.
// Nothing is cached: a grant revoked or an app disabled between two calls is refused on the
// second.
import type {
  AppGrants,
  AppResolver,
  AppsCatalog,
  GrantResolver,
  ResolvedApp,
} from "@anna-ai/app-core";
import { selfApp } from "@anna-ai/app-core";
import type { AppManifest, InstalledApp } from "@anna-ai/app-schema";
import type { CredentialsGrant, WebGrant } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

export interface SqlAppCatalog {
  apps: AppResolver;
  grants: GrantResolver;
  /** `launch` is the runtime's to add (it opens windows through the dispatcher). */
  installedApps: AppsCatalog;
}

/** A numeric row id from a Host API id string; `undefined` for anything else. */
export function rowId(text: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function sqlAppCatalog(db: Kysely<Database>): SqlAppCatalog {
  /** The user's enabled installation of the app, with the app's slug and handle. */
  function installation(userId: number, appId: number) {
    return db
      .selectFrom("user_apps")
      .innerJoin("apps", "apps.id", "user_apps.app_id")
      .select([
        "user_apps.version",
        "user_apps.web_grant",
        "user_apps.credentials_grant",
        "apps.slug",
        "apps.handle",
      ])
      .where("user_apps.user_id", "=", userId)
      .where("user_apps.app_id", "=", appId)
      .where("user_apps.enabled", "=", 1)
      .executeTakeFirst();
  }

  async function version(appId: number, versionId: string) {
    return db
      .selectFrom("app_versions")
      .select(["name", "manifest", "tool_ids"])
      .where("app_id", "=", appId)
      .where("version", "=", versionId)
      .executeTakeFirst();
  }

  return {
    apps: {
      async resolve(query): Promise<ResolvedApp | undefined> {
        const userId = rowId(query.userId);
        const appId = rowId(query.appId);
        if (userId === undefined || appId === undefined) return undefined;
        const installed = await installation(userId, appId);
        if (installed === undefined) return undefined;
        // A window keeps the version it opened on (an upgrade applies to new windows).
        const versionId = query.versionId ?? installed.version;
        const row = await version(appId, versionId);
        if (row === undefined) return undefined;
        return {
          appId: query.appId,
          versionId,
          manifest: JSON.parse(row.manifest) as AppManifest,
          toolIds: JSON.parse(row.tool_ids) as Record<string, string>,
          name: row.name,
        };
      },
    },
    grants: {
      async grants(query): Promise<AppGrants> {
        const userId = rowId(query.userId);
        const appId = rowId(query.appId);
        const installed =
          userId === undefined || appId === undefined
            ? undefined
            : await installation(userId, appId);
        if (installed === undefined) return {};
        return {
          ...(installed.web_grant === null
            ? {}
            : { webGrant: JSON.parse(installed.web_grant) as WebGrant }),
          ...(installed.credentials_grant === null
            ? {}
            : { credentialsGrant: JSON.parse(installed.credentials_grant) as CredentialsGrant }),
        };
      },
    },
    installedApps: {
      async list(userIdText): Promise<InstalledApp[]> {
        const userId = rowId(userIdText);
        if (userId === undefined) return [];
        const rows = await db
          .selectFrom("user_apps")
          .innerJoin("apps", "apps.id", "user_apps.app_id")
          .innerJoin("app_versions", (j) =>
            j
              .onRef("app_versions.app_id", "=", "user_apps.app_id")
              .onRef("app_versions.version", "=", "user_apps.version"),
          )
          .select([
            "apps.id",
            "apps.slug",
            "apps.handle",
            "app_versions.version",
            "app_versions.name",
            "app_versions.manifest",
          ])
          .where("user_apps.user_id", "=", userId)
          .where("user_apps.enabled", "=", 1)
          .orderBy("apps.id")
          .execute();
        return rows.map((r) => ({
          ...selfApp(JSON.parse(r.manifest) as AppManifest, String(r.id), r.version, r.name),
          slug: r.slug,
          handle: r.handle,
        }));
      },
    },
  };
}
