// The app registry service: apps and their listing, versions, the working draft, UI bundles and
// the status machine S1, over one set of dependencies (injected through AppDeps.apps, like the
// Executa Hub). Also what the Hub asks of apps: which executa versions released apps froze.
import type { ExecutaReferences } from "../hub/executa-hub.js";
import { appService } from "./app-service.js";
import { appStatus } from "./app-status.js";
import { bundleService } from "./bundle-service.js";
import { releaseReviews } from "./release-review.js";
import type { FrozenExecuta } from "./bundled-executas.js";
import type { Db, RegistryDeps } from "./registry-deps.js";
import { versionService } from "./version-service.js";
import { workingDraft } from "./working-draft.js";

export function appRegistry(deps: RegistryDeps) {
  return {
    deps,
    apps: appService(deps),
    versions: versionService(deps),
    working: workingDraft(deps),
    bundles: bundleService(deps),
    status: appStatus(deps),
    releases: releaseReviews(deps),
  };
}

export type AppRegistry = ReturnType<typeof appRegistry>;

/** Executa versions frozen into a released app version: the Hub refuses to yank them (R9). */
export function appExecutaReferences(db: Db): ExecutaReferences {
  return {
    async versionsInPublishedApps(executaId) {
      const [versions, released] = await Promise.all([
        db
          .selectFrom("executa_versions")
          .select("id")
          .where("executa_id", "=", executaId)
          .execute(),
        db
          .selectFrom("app_versions")
          .select("frozen_executas")
          .where("published_at", "is not", null)
          .where("frozen_executas", "!=", "[]")
          .execute(),
      ]);
      const mine = new Set(versions.map((v) => v.id));
      const pinned = new Set<number>();
      for (const row of released) {
        for (const f of JSON.parse(row.frozen_executas) as FrozenExecuta[]) {
          if (mine.has(f.executa_version_id)) pinned.add(f.executa_version_id);
        }
      }
      return pinned;
    },
  };
}
