// The Hub's executas an app version names, by tool id, with the version a user gets: the one
// frozen on cut, else the manifest's pin, else the newest by SemVer (a legacy version without
// bindings). Archived executas are found too: a delete archives what a published app froze
// (R9), and existing installs keep working (A37).
import { compareAppVersions } from "@anna-ai/app-schema";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { ExecutaNeed } from "./manifest-refs.js";

export interface ResolvedExecuta {
  executaId: number;
  toolId: string;
  name: string;
  description: string | null;
  executaType: string;
  archived: boolean;
  versionId: number | null;
  version: string | null;
}

export async function resolveExecutas(
  db: Kysely<Database>,
  needs: readonly ExecutaNeed[],
  frozen: ReadonlyMap<string, number>,
): Promise<Map<string, ResolvedExecuta>> {
  const out = new Map<string, ResolvedExecuta>();
  if (needs.length === 0) return out;
  const rows = await db
    .selectFrom("executas")
    .select(["id", "tool_id", "name", "description", "executa_type", "archived_at"])
    .where(
      "tool_id",
      "in",
      needs.map((n) => n.toolId),
    )
    .execute();
  if (rows.length === 0) return out;
  const versions = await db
    .selectFrom("executa_versions")
    .select(["id", "executa_id", "version"])
    .where(
      "executa_id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  const picked = new Map<number, { id: number; version: string }>();
  for (const r of rows) {
    const mine = versions.filter((v) => v.executa_id === r.id);
    const need = needs.find((n) => n.toolId === r.tool_id);
    const frozenId = frozen.get(r.tool_id);
    const chosen =
      mine.find((v) => v.id === frozenId) ??
      (need?.pinned === undefined ? undefined : mine.find((v) => v.version === need.pinned)) ??
      [...mine].sort((a, b) => compareAppVersions(b.version, a.version))[0];
    if (chosen) picked.set(r.id, chosen);
  }
  // A version's name and description are the ones frozen with it, not the live row's.
  const snapshots = new Map(
    picked.size === 0
      ? []
      : (
          await db
            .selectFrom("executa_versions")
            .select(["id", "snapshot"])
            .where(
              "id",
              "in",
              [...picked.values()].map((v) => v.id),
            )
            .execute()
        ).map((v) => [v.id, JSON.parse(v.snapshot) as { name?: unknown; description?: unknown }]),
  );
  for (const r of rows) {
    const chosen = picked.get(r.id);
    const frozenAs = chosen ? snapshots.get(chosen.id) : undefined;
    out.set(r.tool_id, {
      executaId: r.id,
      toolId: r.tool_id,
      name: typeof frozenAs?.name === "string" ? frozenAs.name : r.name,
      description:
        typeof frozenAs?.description === "string" || frozenAs?.description === null
          ? frozenAs.description
          : r.description,
      executaType: r.executa_type,
      archived: r.archived_at !== null,
      versionId: chosen?.id ?? null,
      version: chosen?.version ?? null,
    });
  }
  return out;
}
