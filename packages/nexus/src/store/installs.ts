// Installs (A35–A37): installing an app converges the user on its `is_latest` version and gives
// them every required executa they lack as a `UserExecuta` (optional ones are theirs to add);
// re-running install is the update (no background job); uninstalling removes the app and the
// auto-installed executas no installed app still requires, never the ones the user installed.
// One rule keeps `user_executas` right, applied after every change: an executa with source
// `app` lives exactly as long as some installed app's installed version requires it.
// Every change is one transaction.
import type { CredentialsGrant, WebGrant } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { AppStatus } from "../db/schema-apps.js";
import { isInstallable } from "./catalogue.js";
import { resolveExecutas } from "./executa-lookup.js";
import { executaNeeds, frozenExecutas, parseManifest } from "./manifest-refs.js";
import { collectExecutas } from "./user-executas.js";

interface AppRow {
  id: number;
  slug: string;
  status: AppStatus;
  owner_id: number | null;
  latest_version_id: number | null;
}

export interface InstallOutcome {
  appId: number;
  slug: string;
  /** True the first time this user installs it (or after an uninstall). */
  created: boolean;
  version: string;
  /** The version they had before, when this call upgraded them. */
  previousVersion: string | null;
  /** Required executas created for them now, those they had already, those the Hub lacks. */
  installedExecutas: string[];
  keptExecutas: string[];
  unavailableExecutas: string[];
  /** Auto-installed executas no installed app requires any more. */
  removedExecutas: string[];
}

export interface UserAppPatch {
  enabled?: boolean | undefined;
  autoUpdate?: boolean | undefined;
  /** `null` revokes the grant. */
  webGrant?: WebGrant | null | undefined;
  credentialsGrant?: CredentialsGrant | null | undefined;
}

function notFound(slug: string): NexusError {
  return new NexusError(
    "not_found",
    `no app '${slug}' in the store; find apps with GET /api/v1/store/apps?q=…`,
  );
}

function notInstalled(slug: string): NexusError {
  return new NexusError(
    "not_found",
    `you have not installed '${slug}'; install it with POST /api/v1/store/apps/${slug}/install`,
  );
}

async function appBySlug(tx: Kysely<Database>, slug: string): Promise<AppRow | undefined> {
  return tx
    .selectFrom("apps")
    .select(["id", "slug", "status", "owner_id", "latest_version_id"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

export function storeInstalls(db: Kysely<Database>, clock: Clock) {
  return {
    /** A35 on the first call, A36 on every later one. */
    install(userId: number, slug: string): Promise<InstallOutcome> {
      return db.transaction().execute(async (tx) => {
        const now = clock.now();
        const app = await appBySlug(tx, slug);
        const existing =
          app === undefined
            ? undefined
            : await tx
                .selectFrom("user_apps")
                .select(["version"])
                .where("user_id", "=", userId)
                .where("app_id", "=", app.id)
                .executeTakeFirst();
        const privileged = app !== undefined && (app.owner_id === userId || existing !== undefined);
        if (!app || (!isInstallable(app.status) && !privileged)) throw notFound(slug);
        if (!isInstallable(app.status)) {
          throw new NexusError(
            "app_not_installable",
            app.status === "ARCHIVED"
              ? `'${slug}' is archived: it takes no new installs or updates` +
                  (existing ? `; your installed ${existing.version} keeps working` : "")
              : `'${slug}' is ${app.status}; only PUBLISHED or APPROVED apps install (submit it for review, then release a version)`,
            { details: { status: app.status } },
          );
        }
        const latest =
          app.latest_version_id === null
            ? undefined
            : await tx
                .selectFrom("app_versions")
                .select(["id", "version", "manifest", "frozen_executas"])
                .where("id", "=", app.latest_version_id)
                .where("app_id", "=", app.id)
                .executeTakeFirst();
        if (!latest) {
          throw new NexusError(
            "no_published_version",
            `'${slug}' is approved but has no released version yet; the developer releases one with \`anna-app apps release <version>\``,
            { details: { status: app.status } },
          );
        }

        const moved = {
          version: latest.version,
          installed_version_id: latest.id,
          updated_at: now,
        };
        await tx
          .insertInto("user_apps")
          .values({
            user_id: userId,
            app_id: app.id,
            enabled: 1,
            auto_update: 1,
            web_grant: null,
            credentials_grant: null,
            installed_at: now,
            ...moved,
          })
          .onConflict((oc) => oc.columns(["user_id", "app_id"]).doUpdateSet(moved))
          .execute();
        const firstEver = await tx
          .insertInto("app_installers")
          .values({ app_id: app.id, user_id: userId, first_installed_at: now })
          .onConflict((oc) => oc.columns(["app_id", "user_id"]).doNothing())
          .returning("app_id")
          .executeTakeFirst();
        if (firstEver) {
          await tx
            .updateTable("apps")
            .set((eb) => ({ install_count: eb("install_count", "+", 1) }))
            .where("id", "=", app.id)
            .execute();
        }

        const required = executaNeeds(parseManifest(latest.manifest)).filter((n) => n.required);
        const found = await resolveExecutas(tx, required, frozenExecutas(latest.frozen_executas));
        const installedExecutas: string[] = [];
        const keptExecutas: string[] = [];
        const unavailableExecutas: string[] = [];
        for (const need of required) {
          const e = found.get(need.toolId);
          if (!e) {
            unavailableExecutas.push(need.toolId);
            continue;
          }
          const added = await tx
            .insertInto("user_executas")
            .values({
              user_id: userId,
              executa_id: e.executaId,
              executa_version_id: e.versionId,
              source: "app",
              source_app_id: app.id,
              enabled: 1,
              installed_at: now,
              updated_at: now,
            })
            .onConflict((oc) => oc.columns(["user_id", "executa_id"]).doNothing())
            .returning("id")
            .executeTakeFirst();
          if (added) {
            installedExecutas.push(need.toolId);
            continue;
          }
          keptExecutas.push(need.toolId);
          // What this app installed follows its new frozen version; the user's own stay put.
          await tx
            .updateTable("user_executas")
            .set({ executa_version_id: e.versionId, updated_at: now })
            .where("user_id", "=", userId)
            .where("executa_id", "=", e.executaId)
            .where("source", "=", "app")
            .where("source_app_id", "=", app.id)
            .where((eb) =>
              e.versionId === null
                ? eb("executa_version_id", "is not", null)
                : eb.or([
                    eb("executa_version_id", "is", null),
                    eb("executa_version_id", "!=", e.versionId),
                  ]),
            )
            .execute();
        }
        const removedExecutas = await collectExecutas(tx, userId);
        return {
          appId: app.id,
          slug: app.slug,
          created: existing === undefined,
          version: latest.version,
          previousVersion:
            existing !== undefined && existing.version !== latest.version ? existing.version : null,
          installedExecutas,
          keptExecutas,
          unavailableExecutas,
          removedExecutas,
        };
      });
    },

    /** Removes the app for the user; returns the auto-installed executas that went with it. */
    uninstall(userId: number, slug: string): Promise<{ appId: number; removedExecutas: string[] }> {
      return db.transaction().execute(async (tx) => {
        const app = await appBySlug(tx, slug);
        if (!app) throw notInstalled(slug);
        const gone = await tx
          .deleteFrom("user_apps")
          .where("user_id", "=", userId)
          .where("app_id", "=", app.id)
          .executeTakeFirst();
        if (Number(gone.numDeletedRows) === 0) throw notInstalled(slug);
        return { appId: app.id, removedExecutas: await collectExecutas(tx, userId) };
      });
    },

    /** Enable/disable, the update preference and the grants; the app must be installed. */
    async update(userId: number, slug: string, patch: UserAppPatch): Promise<void> {
      const app = await appBySlug(db, slug);
      if (!app) throw notInstalled(slug);
      const json = (g: object | null | undefined) =>
        g === undefined ? undefined : g === null ? null : JSON.stringify(g);
      const set = Object.fromEntries(
        Object.entries({
          enabled: patch.enabled === undefined ? undefined : patch.enabled ? 1 : 0,
          auto_update: patch.autoUpdate === undefined ? undefined : patch.autoUpdate ? 1 : 0,
          web_grant: json(patch.webGrant),
          credentials_grant: json(patch.credentialsGrant),
        }).filter(([, v]) => v !== undefined),
      );
      const done = await db
        .updateTable("user_apps")
        .set({ ...set, updated_at: clock.now() })
        .where("user_id", "=", userId)
        .where("app_id", "=", app.id)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw notInstalled(slug);
    },
  };
}

export type StoreInstalls = ReturnType<typeof storeInstalls>;
