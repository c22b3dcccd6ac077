// The executas a user has (`UserExecuta`): listed with where each came from, installed by the
// user (public executas only; app-bundled ones arrive through their app), removed by the user
// unless an installed app requires it. `collectExecutas` is the one rule installs apply after
// every change: an auto-installed executa lives as long as an installed app requires it.
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import { iso } from "../http/views.js";
import { resolveExecutas } from "./executa-lookup.js";
import { executaNeeds, parseManifest } from "./manifest-refs.js";

/** tool_id → slugs of the user's installed apps whose installed version requires it. */
async function requiredBy(db: Kysely<Database>, userId: number): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom("user_apps")
    .innerJoin("apps", "apps.id", "user_apps.app_id")
    .innerJoin("app_versions", (j) =>
      j
        .onRef("app_versions.app_id", "=", "user_apps.app_id")
        .onRef("app_versions.version", "=", "user_apps.version"),
    )
    .select(["apps.slug", "app_versions.manifest"])
    .where("user_apps.user_id", "=", userId)
    .execute();
  const out = new Map<string, string[]>();
  for (const r of rows) {
    for (const n of executaNeeds(parseManifest(r.manifest))) {
      if (n.required) out.set(n.toolId, [...(out.get(n.toolId) ?? []), r.slug]);
    }
  }
  return out;
}

/**
 * Deletes the user's auto-installed executas that none of their installed apps requires (at
 * the version installed); returns their tool ids.
 */
export async function collectExecutas(db: Kysely<Database>, userId: number): Promise<string[]> {
  const auto = await db
    .selectFrom("user_executas")
    .innerJoin("executas", "executas.id", "user_executas.executa_id")
    .select(["user_executas.id", "executas.tool_id"])
    .where("user_executas.user_id", "=", userId)
    .where("user_executas.source", "=", "app")
    .execute();
  if (auto.length === 0) return [];
  const required = await requiredBy(db, userId);
  const orphans = auto.filter((a) => !required.has(a.tool_id));
  if (orphans.length === 0) return [];
  await db
    .deleteFrom("user_executas")
    .where(
      "id",
      "in",
      orphans.map((o) => o.id),
    )
    .execute();
  return orphans.map((o) => o.tool_id).sort();
}

function mine(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom("user_executas")
    .innerJoin("executas", "executas.id", "user_executas.executa_id")
    .leftJoin("executa_versions", "executa_versions.id", "user_executas.executa_version_id")
    .leftJoin("apps", "apps.id", "user_executas.source_app_id")
    .select([
      "user_executas.id",
      "executas.tool_id",
      "executas.name",
      "executas.description",
      "executas.executa_type",
      "executas.archived_at",
      "executa_versions.version",
      "user_executas.executa_version_id",
      "user_executas.source",
      "apps.slug as source_app",
      "user_executas.enabled",
      "user_executas.installed_at",
      "user_executas.updated_at",
    ])
    .where("user_executas.user_id", "=", userId);
}

type Row = Awaited<ReturnType<ReturnType<typeof mine>["execute"]>>[number];

function view(r: Row) {
  return {
    id: r.id,
    tool_id: r.tool_id,
    name: r.name,
    description: r.description,
    executa_type: r.executa_type,
    version: r.version,
    executa_version_id: r.executa_version_id,
    source: r.source,
    source_app: r.source_app,
    enabled: r.enabled === 1,
    archived: r.archived_at !== null,
    installed_at: iso(r.installed_at),
    updated_at: iso(r.updated_at),
  };
}

export type UserExecutaView = ReturnType<typeof view>;

export function userExecutas(db: Kysely<Database>, clock: Clock) {
  async function one(userId: number, toolId: string): Promise<UserExecutaView | undefined> {
    const row = await mine(db, userId).where("executas.tool_id", "=", toolId).executeTakeFirst();
    return row && view(row);
  }

  return {
    async list(userId: number): Promise<UserExecutaView[]> {
      const rows = await mine(db, userId)
        .orderBy("user_executas.installed_at")
        .orderBy("user_executas.id")
        .execute();
      return rows.map(view);
    },

    one,

    /**
     * Installs a public executa for the user at its newest version, or adopts one an app had
     * installed so that uninstalling the app keeps it. True when a row was created.
     */
    install(
      userId: number,
      toolId: string,
    ): Promise<{ created: boolean; executa: UserExecutaView }> {
      return db.transaction().execute(async (tx) => {
        const now = clock.now();
        const e = (
          await resolveExecutas(tx, [{ toolId, required: true, pinned: undefined }], new Map())
        ).get(toolId);
        const had = await tx
          .selectFrom("user_executas")
          .select(["id"])
          .where("user_id", "=", userId)
          .where("executa_id", "=", e?.executaId ?? -1)
          .executeTakeFirst();
        if (!e || (!had && e.archived)) {
          throw new NexusError("not_found", `no executa '${toolId}' in the Executa Hub`);
        }
        if (had) {
          await tx
            .updateTable("user_executas")
            .set({ source: "user", source_app_id: null, updated_at: now })
            .where("id", "=", had.id)
            .execute();
        } else {
          const visibility = await tx
            .selectFrom("executas")
            .select("visibility")
            .where("id", "=", e.executaId)
            .executeTakeFirstOrThrow();
          if (visibility.visibility !== "public") {
            throw new NexusError(
              "executa_not_installable",
              `'${toolId}' is ${visibility.visibility}, not public: it installs only with an app that requires it`,
              { details: { visibility: visibility.visibility } },
            );
          }
          await tx
            .insertInto("user_executas")
            .values({
              user_id: userId,
              executa_id: e.executaId,
              executa_version_id: e.versionId,
              source: "user",
              source_app_id: null,
              enabled: 1,
              installed_at: now,
              updated_at: now,
            })
            .execute();
        }
        const row = await mine(tx, userId)
          .where("executas.id", "=", e.executaId)
          .executeTakeFirstOrThrow();
        return { created: !had, executa: view(row) };
      });
    },

    /** Refused while an installed app requires it: uninstall the app instead. */
    remove(userId: number, toolId: string): Promise<void> {
      return db.transaction().execute(async (tx) => {
        const row = await mine(tx, userId)
          .where("executas.tool_id", "=", toolId)
          .executeTakeFirst();
        if (!row) throw new NexusError("not_found", `you do not have the executa '${toolId}'`);
        const apps = (await requiredBy(tx, userId)).get(toolId);
        if (apps) {
          throw new NexusError(
            "executa_required",
            `'${toolId}' is required by your installed app${apps.length > 1 ? "s" : ""} ${apps.join(", ")}; ` +
              `uninstall ${apps.length > 1 ? "them" : "it"} first (DELETE /api/v1/store/apps/${apps[0]}/install)`,
            { details: { required_by: apps } },
          );
        }
        await tx.deleteFrom("user_executas").where("id", "=", row.id).execute();
      });
    },

    /** Enables or disables one of the user's executas. */
    async setEnabled(userId: number, toolId: string, enabled: boolean): Promise<UserExecutaView> {
      const row = await mine(db, userId).where("executas.tool_id", "=", toolId).executeTakeFirst();
      if (!row) throw new NexusError("not_found", `you do not have the executa '${toolId}'`);
      await db
        .updateTable("user_executas")
        .set({ enabled: enabled ? 1 : 0, updated_at: clock.now() })
        .where("id", "=", row.id)
        .execute();
      return { ...view(row), enabled, updated_at: iso(clock.now()) };
    },
  };
}

export type UserExecutas = ReturnType<typeof userExecutas>;
