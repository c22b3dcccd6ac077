// The folder a scaffolder writes into: refused when it is a file, or non-empty without --force.
import { lstat, readdir, stat } from "node:fs/promises";

/** Entries that do not make a folder "non-empty": a fresh `git init` is fine to scaffold into. */
const IGNORED_ENTRIES = new Set([".git", ".DS_Store"]);
/** How many entries the "not empty" message names before "and N more". */
const SHOWN_ENTRIES = 3;

export type TargetProblem = "TARGET_NOT_EMPTY" | "TARGET_NOT_DIR";

/**
 * Resolves when `dir` is missing, empty (but for {@link IGNORED_ENTRIES}) or `force` is set;
 * otherwise throws the error `refuse` makes, so each command keeps its own error class.
 */
export async function checkTargetFolder(
  dir: string,
  force: boolean | undefined,
  refuse: (code: TargetProblem, message: string) => Error,
): Promise<void> {
  const existing = await existingEntries(dir, refuse);
  if (existing.length > 0 && force !== true) {
    throw refuse(
      "TARGET_NOT_EMPTY",
      `${dir} is not empty (${describeEntries(existing)}); pass --force to write the template into it`,
    );
  }
}

/** Whether anything (a file, folder or dangling link) is at `file`. */
export async function pathExists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** Entries of the target that make it non-empty; [] when it does not exist yet. */
async function existingEntries(
  dir: string,
  refuse: (code: TargetProblem, message: string) => Error,
): Promise<string[]> {
  let info;
  try {
    info = await lstat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  if (!info.isDirectory() && !(info.isSymbolicLink() && (await stat(dir)).isDirectory())) {
    throw refuse("TARGET_NOT_DIR", `${dir} exists and is not a directory`);
  }
  return (await readdir(dir)).filter((e) => !IGNORED_ENTRIES.has(e)).sort();
}

function describeEntries(entries: string[]): string {
  const shown = entries.slice(0, SHOWN_ENTRIES).join(", ");
  return entries.length > SHOWN_ENTRIES
    ? `${shown} and ${entries.length - SHOWN_ENTRIES} more`
    : shown;
}
