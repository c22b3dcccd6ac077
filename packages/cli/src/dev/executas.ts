// Which executas the harness registers (Reference L11570–11585, R165): everything discovered
// under `<manifest-dir>/executas/` (first match wins, duplicates skipped with a warning,
// `enabled: false` excluded), or, when `--executa` is given at all, exactly those specs (they
// bypass `enabled: false`). Nothing is spawned here: the pool starts a plugin on its first
// `tools.invoke`.
import path from "node:path";
import { discoverExecutas, resolveSpecString, type LaunchSpec } from "@anna-ai/executa-host";
import { bundledExecutaDirs, DevLaunchError, type DevApp } from "./load-app.js";

export interface DevExecutas {
  specs: LaunchSpec[];
  /** Startup warnings (skipped duplicates, launcher fallbacks), printed in the banner. */
  warnings: string[];
  /** `bundled:<handle>` → dev tool_id, for the dispatcher's `toolIds`. */
  toolIds: Record<string, string>;
  /** `<handle>` → dev tool_id, the generated `window.__ANNA_TOOL_IDS__`. */
  handles: Record<string, string>;
  /** Where the executas came from, for the banner. */
  source: "discovery" | "--executa";
}

export async function resolveDevExecutas(
  app: DevApp,
  executaFlags: readonly string[],
): Promise<DevExecutas> {
  const warnings: string[] = [];
  let specs: LaunchSpec[];
  let source: DevExecutas["source"];
  if (executaFlags.length > 0) {
    source = "--executa";
    specs = [];
    for (const flag of executaFlags) {
      try {
        specs.push(await resolveSpecString(flag, { cwd: app.projectDir, flag: "--executa" }));
      } catch (error) {
        throw new DevLaunchError(`--executa ${flag}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  } else {
    source = "discovery";
    const found = await discoverExecutas(path.join(app.projectDir, "executas"));
    if (found.errors.length > 0)
      throw new DevLaunchError(found.errors.map((e) => e.message).join("\n"), {
        cause: found.errors[0],
      });
    warnings.push(...found.warnings);
    specs = found.specs;
  }
  for (const spec of specs) {
    for (const warning of spec.warnings) warnings.push(`${spec.toolId}: ${warning}`);
  }

  const toolIds: Record<string, string> = {};
  const handles: Record<string, string> = {};
  for (const [handle, dir] of bundledExecutaDirs(app)) {
    const spec = specs.find((s) => path.resolve(s.dir) === dir);
    if (spec === undefined) continue;
    toolIds[`bundled:${handle}`] = spec.toolId;
    handles[handle] = spec.toolId;
  }
  return { specs, warnings, toolIds, handles, source };
}
