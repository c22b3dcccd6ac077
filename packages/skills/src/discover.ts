import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SkillIssue } from "./issues.js";

export const SKILL_FILE_NAME = "SKILL.md";
/** Folders that hold installed or generated files, never skills of their own. */
export const SKIPPED_DIRS = new Set(["node_modules", "__pycache__", "venv", ".venv"]);
/** Skills sit one or two levels down; the bound stops symlink loops and runaway trees. */
export const MAX_DISCOVERY_DEPTH = 8;

/**
 * Finds `SKILL.md` files under `root` (S18, X2): walks recursively, but a folder that has a
 * `SKILL.md` is one skill and is not descended into, so its `examples/` never count as skills.
 * Dot-folders and dependency folders are skipped. A missing `root` yields nothing.
 * Paths come back sorted, so "first wins" is deterministic.
 */
export async function discoverSkillFiles(
  root: string,
  onIssue: (issue: SkillIssue) => void = () => undefined,
): Promise<string[]> {
  const found: string[] = [];
  await walk(root, 0, found, onIssue);
  return found.sort();
}

async function walk(
  dir: string,
  depth: number,
  found: string[],
  onIssue: (issue: SkillIssue) => void,
): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const skill = entries.find((e) => e.name === SKILL_FILE_NAME);
  if (skill !== undefined && (skill.isFile() || skill.isSymbolicLink())) {
    found.push(join(dir, SKILL_FILE_NAME));
    return;
  }
  const nearMiss = entries.find((e) => e.name.toLowerCase() === "skill.md");
  if (nearMiss !== undefined) {
    onIssue({
      severity: "warning",
      code: "skill.skill_file_case",
      message: `"${nearMiss.name}" is not loaded: the file must be named exactly SKILL.md`,
      file: join(dir, nearMiss.name),
    });
  }
  if (depth >= MAX_DISCOVERY_DEPTH) return;
  const subdirs: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
    if (entry.isDirectory()) subdirs.push(join(dir, entry.name));
    else if (entry.isSymbolicLink() && (await isDir(join(dir, entry.name)))) {
      subdirs.push(join(dir, entry.name));
    }
  }
  await Promise.all(subdirs.map((sub) => walk(sub, depth + 1, found, onIssue)));
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
