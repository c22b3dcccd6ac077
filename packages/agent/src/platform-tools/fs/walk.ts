// A bounded directory walk for listings and searches: never follows symlinks (they are reported
// as `symlink`), stops at a depth and at a number of visited entries, and says when it stopped.
import { lstat, opendir } from "node:fs/promises";
import path from "node:path";
import { shownPath } from "./workspace.js";

export type EntryType = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  /** Workspace-relative, `/`-separated. */
  path: string;
  name: string;
  type: EntryType;
  size: number;
  modified: string;
}

export interface WalkOptions {
  recursive: boolean;
  maxDepth: number;
  maxVisited: number;
  /** Called for every entry; return false to stop the walk. */
  visit(entry: WalkEntry): boolean;
}

export function entryType(stats: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  return stats.isFile() ? "file" : "other";
}

/** Walks below `start` breadth-first; returns whether it left entries out (a cap, the depth or `visit`). */
export async function walk(root: string, start: string, options: WalkOptions): Promise<boolean> {
  let visited = 0;
  let cut = false;
  let level: string[] = [start];
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      // opendir, not readdir: a directory of a million names is read only as far as the budget.
      const names: string[] = [];
      for await (const dirent of await opendir(dir)) {
        names.push(dirent.name);
        if (visited + names.length > options.maxVisited) break;
      }
      for (const name of names.sort()) {
        if (++visited > options.maxVisited) return true;
        const absolute = path.join(dir, name);
        const stats = await lstat(absolute).catch(() => undefined);
        if (stats === undefined) continue; // removed while walking
        const type = entryType(stats);
        const entry: WalkEntry = {
          path: shownPath(root, absolute),
          name,
          type,
          size: type === "file" ? stats.size : 0,
          modified: stats.mtime.toISOString(),
        };
        if (!options.visit(entry)) return true;
        if (type === "directory" && options.recursive) {
          if (depth + 1 >= options.maxDepth) cut = true;
          else next.push(absolute);
        }
      }
    }
    level = next;
  }
  return cut;
}
