// Project scans: committed dependency, build and cache folders carry their own manifest.json,
// executa.json and SKILL.md files (real-world-plugins.md "More traps"); they are never part of
// the app, so every scan skips them, as `anna-app dev` discovery does.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { isIgnoredFolder } from "@anna-ai/executa-host";

/** Beyond discovery's own list (node_modules, __pycache__, build, dot-folders, *.egg-info). */
const EXTRA_SKIPPED_FOLDERS = new Set([
  "dist",
  "coverage",
  "target",
  "venv",
  "__snapshots__",
  ".cache",
  ".turbo",
  ".next",
  ".pytest_cache",
  ".mypy_cache",
]);

/** A scan stops descending here; real projects are a few levels deep. */
export const SCAN_MAX_DEPTH = 8;
/** And stops collecting past this many files, so a mistaken root cannot hang the CLI. */
export const SCAN_MAX_FILES = 20_000;

export function isSkippedFolder(name: string): boolean {
  return isIgnoredFolder(name) || EXTRA_SKIPPED_FOLDERS.has(name) || name.endsWith("_cache");
}

export interface WalkOptions {
  /** Keep a file when this returns true (gets the base name). */
  accept(name: string): boolean;
  maxDepth?: number;
  /** Folder names skipped besides the usual ones (e.g. the bundle inside a project scan). */
  skipFolder?: (name: string, absolute: string) => boolean;
}

/** Absolute paths of accepted files under `root`, sorted; a missing root yields none. */
export async function walkFiles(root: string, options: WalkOptions): Promise<string[]> {
  const out: string[] = [];
  const maxDepth = options.maxDepth ?? SCAN_MAX_DEPTH;
  async function visit(dir: string, depth: number): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (out.length >= SCAN_MAX_FILES) return;
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth >= maxDepth || isSkippedFolder(entry.name)) continue;
        if (options.skipFolder?.(entry.name, absolute)) continue;
        await visit(absolute, depth + 1);
      } else if (entry.isFile() && options.accept(entry.name)) {
        out.push(absolute);
      }
    }
  }
  await visit(root, 0);
  return out;
}

/** `/`-separated path of `absolute` relative to `root` (for messages and `--json`). */
export function relativePath(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  return (rel === "" ? "." : rel).split(path.sep).join("/");
}
