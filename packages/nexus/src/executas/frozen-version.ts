// What the runtime installs: one frozen executa version (`executa_versions`), read by its id and
// turned into the install pipeline's request. Only what a server can run becomes a request:
// skills have no process, and package-manager distributions install into a user's machine
// through uv/pipx/npm/brew, which the server does not do for its users.
import type { InstallRequest } from "@anna-ai/executa-host/install";
import type { Kysely } from "kysely";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";

export interface FrozenVersion {
  toolId: string;
  executaType: string;
  version: string;
  executaVersionId: number;
  /** The distribution fields as frozen (`installable.ts` reads the same ones for clients). */
  snapshot: Record<string, unknown>;
}

const PACKAGE_MANAGER_HINT: Readonly<Record<string, string>> = {
  uv: "uv",
  pipx: "pipx",
  npm: "npm",
  homebrew: "Homebrew",
};

export async function readFrozenVersion(
  db: Kysely<Database>,
  toolId: string,
  executaVersionId: number,
): Promise<FrozenVersion> {
  const row = await db
    .selectFrom("executa_versions")
    .innerJoin("executas", "executas.id", "executa_versions.executa_id")
    .select([
      "executas.tool_id",
      "executas.executa_type",
      "executa_versions.version",
      "executa_versions.snapshot",
    ])
    .where("executa_versions.id", "=", executaVersionId)
    .executeTakeFirst();
  if (row === undefined || row.tool_id !== toolId) {
    throw new NexusError(
      "not_found",
      row === undefined
        ? `executa version ${executaVersionId} does not exist; ask for one of ${toolId}'s frozen versions`
        : `executa version ${executaVersionId} belongs to ${row.tool_id}, not ${toolId}`,
    );
  }
  return {
    toolId,
    executaType: row.executa_type,
    version: row.version,
    executaVersionId,
    snapshot: JSON.parse(row.snapshot) as Record<string, unknown>,
  };
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The pipeline's request for `v`, or a NexusError saying why the server cannot run it. */
export function installRequestOf(v: FrozenVersion): InstallRequest {
  const label = `${v.toolId} ${v.version}`;
  if (v.executaType === "skill") {
    throw new NexusError(
      "executa_not_installable",
      `${label} is a skill: it has no process to run; its SKILL.md reaches the model through the skills index`,
      { details: { tool_id: v.toolId, reason: "skill" } },
    );
  }
  const distribution = str(v.snapshot.distribution_type);
  const manager = distribution === undefined ? undefined : PACKAGE_MANAGER_HINT[distribution];
  if (manager !== undefined) {
    throw new NexusError(
      "executa_not_installable",
      `${label} is distributed through ${manager} (distribution_type ${distribution}), which installs on a user's own machine; ` +
        "the server runs only binary distributions: the publisher uploads per-platform archives with `anna-app executa publish`",
      {
        details: { tool_id: v.toolId, reason: "package_manager", distribution_type: distribution },
      },
    );
  }
  if (distribution !== "binary") {
    throw new NexusError(
      "executa_not_installable",
      `${label} has distribution_type ${JSON.stringify(distribution ?? null)}; the server runs binary distributions only`,
      { details: { tool_id: v.toolId, reason: "distribution_type" } },
    );
  }
  return {
    distribution_type: "binary",
    tool_id: v.toolId,
    version: v.version,
    binary_urls: v.snapshot.binary_urls,
    executable_name: str(v.snapshot.executable_name),
    name: str(v.snapshot.name),
  };
}
