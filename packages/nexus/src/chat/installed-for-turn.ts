// What a user has installed, as one turn reads it: their apps at the installed version's manifest
// (X49: `user_apps.version`, not the latest), and their executas (tools and skills) at the
// version they were installed at, with the frozen snapshot a skill's body lives in.
import type { PromptApp } from "@anna-ai/agent";
import type { AppManifest } from "@anna-ai/app-schema";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** One `user_executas` row joined to its executa and installed version. */
export interface InstalledExecuta {
  toolId: string;
  slug: string;
  name: string;
  description: string | null;
  type: "tool" | "skill";
  enabled: boolean;
  source: "user" | "app";
  executaVersionId: number | null;
  /** The frozen version's payload (a skill's `skill_content` is in it); null without a version. */
  snapshot: Record<string, unknown> | null;
}

export async function installedApps(db: Kysely<Database>, userId: number): Promise<PromptApp[]> {
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
      "apps.name",
      "apps.tagline",
      "user_apps.version",
      "user_apps.enabled",
      "app_versions.manifest",
    ])
    .where("user_apps.user_id", "=", userId)
    .orderBy("apps.slug")
    .execute();
  return rows.map((r) => ({
    // The runtime's dispatcher and catalogue name an app by its row id, as a string.
    appId: String(r.id),
    slug: r.slug,
    name: r.name,
    version: r.version,
    ...(r.tagline ? { tagline: r.tagline } : {}),
    enabled: r.enabled === 1,
    // Stored as the app validator accepted it, `bundled:` handles already resolved to tool ids.
    manifest: JSON.parse(r.manifest) as AppManifest,
  }));
}

export async function installedExecutas(
  db: Kysely<Database>,
  userId: number,
): Promise<InstalledExecuta[]> {
  const rows = await db
    .selectFrom("user_executas")
    .innerJoin("executas", "executas.id", "user_executas.executa_id")
    .leftJoin("executa_versions", "executa_versions.id", "user_executas.executa_version_id")
    .select([
      "executas.tool_id",
      "executas.slug",
      "executas.name",
      "executas.description",
      "executas.executa_type",
      "user_executas.enabled",
      "user_executas.source",
      "user_executas.executa_version_id",
      "executa_versions.snapshot",
    ])
    .where("user_executas.user_id", "=", userId)
    .orderBy("executas.tool_id")
    .execute();
  return rows.map((r) => ({
    toolId: r.tool_id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    type: r.executa_type === "skill" ? "skill" : "tool",
    enabled: r.enabled === 1,
    source: r.source,
    executaVersionId: r.executa_version_id,
    snapshot: r.snapshot === null ? null : (JSON.parse(r.snapshot) as Record<string, unknown>),
  }));
}
