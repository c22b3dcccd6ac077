// `anna-app dev` discovery under `<manifest-dir>/executas/<name>/` (R165, L11579–L11583).
import { readdir } from "node:fs/promises";
import * as path from "node:path";
import { detectContext } from "./detect-context.js";
import type { DetectOptions } from "./detect-context.js";
import { detectInFolder } from "./detect.js";
import { LaunchError } from "./launch-error.js";
import { isDirectory } from "./project-files.js";
import type { SkillFolder } from "./skill-folder.js";
import type { LaunchSpec } from "./types.js";

export interface DiscoveryResult {
  /** One spec per tool_id, in folder-name order. */
  specs: LaunchSpec[];
  /** Startup warnings to print as they are (duplicates, executa.json missing tool_id/type). */
  warnings: string[];
  /** Folders that must be fixed (`go.mod` alone, broken JSON/TOML, several plugins, …). */
  errors: LaunchError[];
  /** Skill folders (executa_type "skill", or SKILL.md only): published as skills, never run. */
  skills: SkillFolder[];
}

// Committed build and dependency folders hold their own manifests and executa.json files
// (real-world-plugins.md "More traps"); they are never plugins.
const IGNORED_FOLDERS = new Set(["node_modules", "__pycache__", "build"]);

export function isIgnoredFolder(name: string): boolean {
  return name.startsWith(".") || IGNORED_FOLDERS.has(name) || name.endsWith(".egg-info");
}

/**
 * Each subfolder of `executasDir`, in name order: the first marker wins, `enabled: false` and
 * folders without a marker (SKILL.md-only) are skipped silently, and a tool_id already taken
 * by an earlier folder is skipped with a warning. A missing `executasDir` means no executas.
 */
export async function discoverExecutas(
  executasDir: string,
  options: DetectOptions = {},
): Promise<DiscoveryResult> {
  const result: DiscoveryResult = { specs: [], warnings: [], errors: [], skills: [] };
  const root = path.resolve(executasDir);
  if (!(await isDirectory(root))) return result;
  const ctx = detectContext(options);
  const names = (await readdir(root)).filter((n) => !isIgnoredFolder(n)).sort();
  const owners = new Map<string, string>();
  for (const name of names) {
    const dir = path.join(root, name);
    if (!(await isDirectory(dir))) continue;
    try {
      const found = await detectInFolder(dir, ctx, { skipDisabled: true });
      if (found.kind === "skill") result.skills.push(found.skill);
      if (found.kind !== "spec") continue;
      const { toolId } = found.spec;
      const owner = owners.get(toolId);
      if (owner !== undefined) {
        result.warnings.push(
          `⚠ skipping executa ${name}: tool_id "${toolId}" already provided by ${owner}`,
        );
        continue;
      }
      owners.set(toolId, name);
      result.specs.push(found.spec);
    } catch (error) {
      if (!(error instanceof LaunchError)) throw error;
      // R165: executa.json without tool_id or type only skips the folder, with a warning.
      if (
        error.code === "INVALID_EXECUTA_JSON" &&
        (error.field === "tool_id" || error.field === "type")
      ) {
        result.warnings.push(`⚠ skipping executa ${name}: ${error.message}`);
      } else {
        result.errors.push(error);
      }
    }
  }
  return result;
}
