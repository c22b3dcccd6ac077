// Steps 7–9 of the pipeline (R78): the staged folder becomes `v{version}/` by one rename (an
// existing same version is moved aside and put back if anything after fails), `current` is
// swapped by renaming a fresh symlink over it, `bin/{name}` the same way, then old versions are
// collected. A reader following `current` sees the old version or the new one, never a mix.
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { InstallError } from "./install-error.js";
import { readInstallRecord } from "./install-record.js";
import type { ToolPaths } from "./layout.js";

/** `…/tools/{owner}/current/…`: which tool a shim starts. */
const SHIM_OWNER_RE = /(?:^|[\\/])tools[\\/]([^\\/]+)[\\/]current(?:[\\/]|$)/;

export const rand = (): string => randomBytes(6).toString("hex");

/** Symlink `link` → `target`, replacing whatever symlink was there in one rename. */
export async function swapSymlink(target: string, link: string, windows: boolean): Promise<void> {
  const tmp = path.join(path.dirname(link), `.${path.basename(link)}-${rand()}`);
  await symlink(target, tmp, windows ? "junction" : undefined);
  try {
    await rename(tmp, link);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export interface CommitInput {
  paths: ToolPaths;
  staging: string;
  versionDir: string;
  /** Shim name (`bin/{name}`) and the entry it points to, relative to the version folder. */
  name: string;
  entrypoint: string;
  windows: boolean;
  /** Point bin/{name} at this tool even when it starts another tool now. */
  force: boolean;
}

export interface Committed {
  /** `.old-*` folder the same version was moved to, already removed after success. */
  replacedSameVersion: boolean;
  /** A non-symlink that stood at bin/{name}, moved to legacy-backup/. */
  backedUp: string | undefined;
  warnings: string[];
}

async function exists(p: string): Promise<boolean> {
  return (await lstat(p).catch(() => undefined)) !== undefined;
}

export async function commitVersion(c: CommitInput): Promise<Committed> {
  const { paths } = c;
  const warnings: string[] = [];
  const previousCurrent = await readlink(paths.current).catch(() => undefined);
  let aside: string | undefined;
  if (await exists(c.versionDir)) {
    aside = path.join(paths.toolDir, `.old-${rand()}`);
    await rename(c.versionDir, aside);
  }
  let backedUp: string | undefined;
  try {
    await rename(c.staging, c.versionDir);
    await swapSymlink(path.basename(c.versionDir), paths.current, c.windows);
    backedUp = await refreshShim(c, warnings);
  } catch (err) {
    // Roll back: the old same-version folder returns and `current` points where it did.
    await rm(c.versionDir, { recursive: true, force: true });
    if (aside !== undefined) await rename(aside, c.versionDir).catch(() => undefined);
    if (previousCurrent !== undefined)
      await swapSymlink(previousCurrent, paths.current, c.windows).catch(() => undefined);
    else await rm(paths.current, { force: true });
    throw err;
  }
  if (aside !== undefined) await rm(aside, { recursive: true, force: true });
  return { replacedSameVersion: aside !== undefined, backedUp, warnings };
}

/** `bin/{name}` → `../tools/{id}/current/{entry}` (a `.cmd` wrapper on Windows). */
async function refreshShim(c: CommitInput, warnings: string[]): Promise<string | undefined> {
  const { paths } = c;
  await mkdir(paths.bin, { recursive: true });
  const entry = path.join(path.relative(paths.bin, paths.current), ...c.entrypoint.split("/"));
  if (c.windows) {
    const cmd = path.join(paths.bin, `${c.name}.cmd`);
    await writeFile(cmd, `@"%~dp0${entry}" %*\r\n`);
    return undefined;
  }
  const shim = path.join(paths.bin, c.name);
  const st = await lstat(shim).catch(() => undefined);
  let backedUp: string | undefined;
  if (st !== undefined && !st.isSymbolicLink()) {
    // A legacy single-file install stood here: keep it (R79 compatibility note).
    const backupDir = path.join(paths.home, "legacy-backup");
    await mkdir(backupDir, { recursive: true });
    backedUp = path.join(backupDir, `${c.name}-${Date.now()}`);
    await rename(shim, backedUp);
  } else if (st !== undefined) {
    const owner = SHIM_OWNER_RE.exec(await readlink(shim))?.[1];
    if (owner !== undefined && owner !== paths.toolId) {
      if (!c.force) {
        throw new InstallError(
          "INVALID_REQUEST",
          `${shim} already starts ${owner}; choose another executable name, or pass --force to point it at ${paths.toolId}`,
        );
      }
      warnings.push(`bin/${c.name} started ${owner}; it now starts ${paths.toolId}`);
    }
  }
  await swapSymlink(entry, shim, false);
  return backedUp;
}

/**
 * Keeps `current` and the `keep` most recently installed other versions; removes the rest and
 * any staging or aside folders a crashed install left behind (the caller holds the tool lock).
 */
export async function collectOldVersions(paths: ToolPaths, keep: number): Promise<string[]> {
  const current = await readlink(paths.current).catch(() => undefined);
  const entries = await readdir(paths.toolDir, { withFileTypes: true });
  const leftovers = entries.filter(
    (e) => e.isDirectory() && (e.name.startsWith(".staging-") || e.name.startsWith(".old-")),
  );
  for (const e of leftovers)
    await rm(path.join(paths.toolDir, e.name), { recursive: true, force: true });
  const versions: { name: string; at: string }[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith("v") || e.name === current) continue;
    const record = await readInstallRecord(path.join(paths.toolDir, e.name)).catch(() => undefined);
    versions.push({ name: e.name, at: record?.installed_at ?? "" });
  }
  versions.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.name < b.name ? 1 : -1));
  const removed = versions.slice(keep).map((v) => v.name);
  for (const name of removed)
    await rm(path.join(paths.toolDir, name), { recursive: true, force: true });
  return removed;
}
