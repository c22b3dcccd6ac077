// Steps 5–6 of the pipeline (R77, R78): which file starts the plugin and which files get +x.
// Precedence: the asset's `entrypoint` → manifest.json's → `bin/{name}`, `bin/{name}.exe`,
// `{name}`, `{name}.exe` → the only executable → the first executable (with a warning).
import { chmod, lstat, readdir } from "node:fs/promises";
import * as path from "node:path";
import { type ArchiveManifest, entrypointFor } from "./archive-manifest.js";
import { InstallError } from "./install-error.js";
import { safeMemberPath } from "./safe-member.js";

export interface Entrypoint {
  /** Relative to the version folder, with `/` separators. */
  relative: string;
  warnings: string[];
}

async function regularFile(root: string, rel: string): Promise<boolean> {
  const dest = safeMemberPath(root, "archive", rel);
  if (dest === undefined) return false;
  const st = await lstat(dest).catch(() => undefined);
  return st?.isFile() === true;
}

/** Regular files with an execute bit, relative, sorted. */
async function executables(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const member = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(member);
      else if (e.isFile() && ((await lstat(path.join(root, member))).mode & 0o111) !== 0)
        out.push(member);
    }
  };
  await walk("");
  return out.sort();
}

export async function resolveEntrypoint(
  root: string,
  o: {
    assetEntrypoint: string | undefined;
    manifest: ArchiveManifest | undefined;
    platform: string;
    name: string;
    label: string;
  },
): Promise<Entrypoint> {
  const declared =
    o.assetEntrypoint !== undefined
      ? { from: "the asset's entrypoint", path: o.assetEntrypoint }
      : (() => {
          const m = entrypointFor(o.manifest?.entrypoint, o.platform);
          return m === undefined
            ? undefined
            : { from: "manifest.json runtime.binary.entrypoint", path: m };
        })();
  if (declared !== undefined) {
    const dest = safeMemberPath(root, o.label, declared.path);
    const rel = dest === undefined ? "" : path.relative(root, dest).split(path.sep).join("/");
    if (rel === "" || !(await regularFile(root, rel))) {
      throw new InstallError(
        "NO_ENTRYPOINT",
        `${o.label}: ${declared.from} ${JSON.stringify(declared.path)} is not a regular file in the archive; fix the path (relative to the archive root)`,
      );
    }
    return { relative: rel, warnings: [] };
  }
  for (const rel of [`bin/${o.name}`, `bin/${o.name}.exe`, o.name, `${o.name}.exe`]) {
    if (await regularFile(root, rel)) return { relative: rel, warnings: [] };
  }
  const found = await executables(root);
  if (found.length === 1) return { relative: found[0]!, warnings: [] };
  if (found.length > 1) {
    return {
      relative: found[0]!,
      warnings: [
        `${o.label}: no entrypoint declared and ${found.length} executables found; starting ${found[0]} — declare runtime.binary.entrypoint in manifest.json`,
      ],
    };
  }
  throw new InstallError(
    "NO_ENTRYPOINT",
    `${o.label}: no entrypoint: no manifest.json runtime.binary.entrypoint, no bin/${o.name} and no executable file; add a manifest.json with runtime.binary.entrypoint`,
  );
}

/** Entry → 0o755, then each `permissions` path (regular files inside the archive only). */
export async function applyPermissions(
  root: string,
  entry: string,
  manifest: ArchiveManifest | undefined,
  label: string,
): Promise<void> {
  await chmod(path.join(root, entry), 0o755);
  for (const [rel, mode] of Object.entries(manifest?.permissions ?? {})) {
    const dest = safeMemberPath(root, label, rel);
    const st = dest === undefined ? undefined : await lstat(dest).catch(() => undefined);
    if (dest === undefined || st?.isFile() !== true) {
      throw new InstallError(
        "INVALID_MANIFEST",
        `manifest.json in the archive: runtime.binary.permissions names ${JSON.stringify(rel)}, which is not a file in the archive`,
      );
    }
    await chmod(dest, mode);
  }
}
