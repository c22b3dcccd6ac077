// What a cut freezes (S1's version sub-lifecycle, real-world-cli.md A16): every tool_id in the
// manifest that names one of the app owner's own executas in the Hub is a bundled executa (the CLI
// substituted its `bundled:<handle>` before upload), pinned to its newest immutable version; one
// with no version yet gets one frozen from its live row, as the hub's first promotion does.
import { declaredToolIds, type AppManifest } from "@anna-ai/app-schema";
import { NexusError } from "../core/errors.js";
import type { ExecutaHub } from "../hub/executa-hub.js";
import type { User } from "../stores/types.js";

export interface FrozenExecuta {
  tool_id: string;
  executa_version_id: number;
  version: string;
}

export async function freezeBundledExecutas(
  hub: ExecutaHub | undefined,
  owner: User,
  manifest: AppManifest,
): Promise<FrozenExecuta[]> {
  const ids = declaredToolIds(manifest, "any");
  if (!hub || ids.size === 0) return [];
  const mine = await hub.list(owner, { includeArchived: false });
  const out: FrozenExecuta[] = [];
  for (const executa of mine.filter((e) => ids.has(e.toolId))) {
    let newest = (await hub.versions(owner, executa.id))[0]?.version;
    if (!newest) {
      try {
        newest = (await hub.freezeVersion(owner, executa.id, undefined, {})).value;
      } catch (err) {
        throw new NexusError(
          "invalid_manifest",
          `bundled executa ${executa.toolId} has no version to freeze (${err instanceof Error ? err.message : String(err)}); publish it with \`anna-app executa publish\` in its folder`,
          { cause: err, details: { tool_id: executa.toolId } },
        );
      }
    }
    out.push({ tool_id: executa.toolId, executa_version_id: newest.id, version: newest.version });
  }
  return out;
}
