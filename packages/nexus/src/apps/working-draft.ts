// The one mutable working draft of an app (S1's version sub-lifecycle; real-world-cli.md A13–A16,
// §9.2): a push with the same `content_hash` changes nothing (`unchanged`), any other bumps the
// integer revision `If-Match` is checked against; cut turns the current revision into an immutable
// version once, freezing the bundled executas and carrying the ready bundle over.
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import type { Selectable } from "kysely";
import type { AppWorkingTable } from "../db/schema-apps.js";
import { copyBundle, currentBundle } from "./bundle-service.js";
import { type FrozenExecuta, freezeBundledExecutas } from "./bundled-executas.js";
import { bundleEntryOf, requireValidManifest } from "./manifest-gate.js";
import { notArchived, ownedApp, type RegistryDeps, versionsOf } from "./registry-deps.js";
import { refuseVersion } from "./version-service.js";
import type { BundleRow, VersionRow } from "./app-views.js";
import { uniqueViolation } from "../stores/sql-stores.js";

export type WorkingRow = Selectable<AppWorkingTable>;

export function workingDraft(deps: RegistryDeps) {
  const { db, clock } = deps;

  async function current(appId: number): Promise<WorkingRow | undefined> {
    return db.selectFrom("app_working").selectAll().where("app_id", "=", appId).executeTakeFirst();
  }

  async function bundleStatus(appId: number): Promise<string | null> {
    const b = await currentBundle(db, appId, null);
    return b ? (b.status === "ready" ? "ready" : "staging") : null;
  }

  return {
    async put(
      user: User,
      appId: number,
      input: { manifest: unknown; changelog?: string | undefined; content_hash: string },
      ifMatch: number | undefined,
    ) {
      const app = await ownedApp(db, user.id, appId);
      notArchived(app);
      const now = clock.now();
      return db
        .transaction()
        .execute(async (tx) => {
          const w = await tx
            .selectFrom("app_working")
            .selectAll()
            .where("app_id", "=", app.id)
            .executeTakeFirst();
          const revision = w?.revision ?? 0;
          if (ifMatch !== undefined && ifMatch !== revision) {
            throw new NexusError(
              "stale_revision",
              `the working draft of ${app.slug} is at revision ${revision}, not ${ifMatch} (If-Match); pull the latest state with \`anna-app apps status ${app.slug}\` and push again`,
              { details: { revision } },
            );
          }
          if (w && w.content_hash === input.content_hash) {
            return { row: w, unchanged: true };
          }
          const manifest = requireValidManifest(input.manifest, "working draft");
          const values = {
            revision: revision + 1,
            manifest: JSON.stringify(manifest),
            changelog: input.changelog ?? null,
            content_hash: input.content_hash,
            cut_version_id: null,
            updated_at: now,
          };
          if (w) {
            // The revision in the WHERE makes a concurrent push that read the same row lose.
            const r = await tx
              .updateTable("app_working")
              .set(values)
              .where("app_id", "=", app.id)
              .where("revision", "=", revision)
              .executeTakeFirst();
            if (Number(r.numUpdatedRows) !== 1) {
              throw new NexusError(
                "stale_revision",
                `the working draft of ${app.slug} changed while this push ran; push again`,
              );
            }
          } else {
            try {
              await tx
                .insertInto("app_working")
                .values({ ...values, app_id: app.id, created_at: now })
                .execute();
            } catch (err) {
              if (uniqueViolation(err) === undefined) throw err;
              throw new NexusError(
                "stale_revision",
                `the working draft of ${app.slug} was created while this push ran; push again`,
              );
            }
          }
          return {
            row: { ...values, app_id: app.id, created_at: w?.created_at ?? now },
            unchanged: false,
          };
        })
        .then(async (r) => ({ ...r, bundleStatus: await bundleStatus(app.id) }));
    },

    async get(user: User, appId: number) {
      const app = await ownedApp(db, user.id, appId);
      const w = await current(app.id);
      if (!w) {
        throw new NexusError(
          "not_found",
          `${app.slug} has no working draft; stage one with \`anna-app apps push\``,
        );
      }
      return { row: w, bundleStatus: await bundleStatus(app.id) };
    },

    async discard(user: User, appId: number): Promise<void> {
      const app = await ownedApp(db, user.id, appId);
      const w = await current(app.id);
      if (!w) throw new NexusError("not_found", `${app.slug} has no working draft to discard`);
      await db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom("app_bundles")
          .where("app_id", "=", app.id)
          .where("version_id", "is", null)
          .execute();
        await tx.deleteFrom("app_working").where("app_id", "=", app.id).execute();
      });
    },

    async cut(
      user: User,
      appId: number,
      input: { version: string; changelog?: string | undefined },
    ): Promise<{ version: VersionRow; frozen: FrozenExecuta[]; bundle: BundleRow | undefined }> {
      const app = await ownedApp(db, user.id, appId);
      notArchived(app);
      const w = await current(app.id);
      if (!w) {
        throw new NexusError(
          "not_found",
          `${app.slug} has no working draft to cut; stage one with \`anna-app apps push\``,
        );
      }
      if (w.cut_version_id !== null) {
        const cut = (await versionsOf(db, app.id)).find((v) => v.id === w.cut_version_id);
        throw new NexusError(
          "already_cut",
          `revision ${w.revision} of ${app.slug} was already cut as version ${cut?.version ?? w.cut_version_id}; push a change before cutting ${input.version}`,
          { details: { version: cut?.version, revision: w.revision } },
        );
      }
      refuseVersion(app, input.version, await versionsOf(db, app.id));
      const manifest = requireValidManifest(JSON.parse(w.manifest), "working draft");
      const bundle = await currentBundle(db, app.id, null);
      if (bundleEntryOf(manifest) !== undefined && bundle?.status !== "ready") {
        throw new NexusError(
          "invalid_manifest",
          `the working draft declares ui.bundle but its bundle is ${bundle ? "not finalized" : "missing"}; run \`anna-app apps push\` to upload it`,
        );
      }
      const frozen = await freezeBundledExecutas(deps.hub, user, manifest);
      const now = clock.now();
      try {
        return await db.transaction().execute(async (tx) => {
          const version = await tx
            .insertInto("app_versions")
            .values({
              app_id: app.id,
              version: input.version,
              name: app.name,
              manifest: w.manifest,
              tool_ids: "{}",
              changelog: input.changelog ?? w.changelog,
              content_hash: w.content_hash,
              frozen_executas: JSON.stringify(frozen),
              source: "cut",
              created_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          const marked = await tx
            .updateTable("app_working")
            .set({ cut_version_id: version.id })
            .where("app_id", "=", app.id)
            .where("revision", "=", w.revision)
            .where("cut_version_id", "is", null)
            .executeTakeFirst();
          if (Number(marked.numUpdatedRows) !== 1) {
            throw new NexusError(
              "already_cut",
              `the working draft of ${app.slug} changed or was cut while this cut ran; check \`anna-app apps versions ${app.slug}\``,
            );
          }
          const copied =
            bundle?.status === "ready" ? await copyBundle(tx, bundle, version.id, now) : undefined;
          return { version, frozen, bundle: copied };
        });
      } catch (err) {
        if (uniqueViolation(err) === undefined) throw err;
        throw new NexusError(
          "version_exists",
          `version ${input.version} of ${app.slug} was created while this cut ran; bump with \`--bump patch\``,
        );
      }
    },
  };
}

export type WorkingDraft = ReturnType<typeof workingDraft>;
