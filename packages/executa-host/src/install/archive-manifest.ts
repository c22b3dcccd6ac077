// The in-archive manifest.json (R77): `name` (the shim and INSTALL.json name), `version`, and
// `runtime.binary` with `entrypoint` (a path, or a per-platform map looked up as full key → OS
// → `default`) and `permissions` (relative path → octal mode, since zip drops +x).
import { lstat, readFile } from "node:fs/promises";
import * as path from "node:path";
import { InstallError } from "./install-error.js";

export const ARCHIVE_MANIFEST = "manifest.json";
const MAX_MANIFEST_BYTES = 1024 * 1024;
const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export interface ArchiveManifest {
  name: string | undefined;
  version: string | undefined;
  entrypoint: string | Readonly<Record<string, string>> | undefined;
  /** Relative path → mode (already parsed from "0o755"/"755"/493). */
  permissions: Readonly<Record<string, number>>;
}

const bad = (why: string) =>
  new InstallError("INVALID_MANIFEST", `${ARCHIVE_MANIFEST} in the archive: ${why}`);

/**
 * A shim/display name as R77 allows it: no `/`, `\`, not `.` or `..`. We also require the flat
 * `[A-Za-z0-9._-]` alphabet, since the name becomes `bin/{name}`.
 */
export function checkExecutableName(name: string, where: string): string {
  if (!NAME_RE.test(name)) {
    throw new InstallError(
      where === ARCHIVE_MANIFEST ? "INVALID_MANIFEST" : "INVALID_REQUEST",
      `${where}: name ${JSON.stringify(name)} must be 1–128 of A-Z, a-z, 0-9, '.', '_', '-' (no '/', '\\', not starting with '.')`,
    );
  }
  return name;
}

export function parseMode(raw: unknown, where: string): number {
  const text =
    typeof raw === "number" ? raw.toString(8) : typeof raw === "string" ? raw.trim() : "";
  const m = /^(?:0o|0)?([0-7]{3,4})$/i.exec(text);
  if (!m) throw bad(`${where} must be an octal mode such as "0o755"`);
  // No setuid/setgid/sticky from an archive.
  return Number.parseInt(m[1]!, 8) & 0o777;
}

/** Undefined when the archive has no manifest.json at its root. */
export async function readArchiveManifest(root: string): Promise<ArchiveManifest | undefined> {
  const file = path.join(root, ARCHIVE_MANIFEST);
  const st = await lstat(file).catch(() => undefined);
  if (st === undefined) return undefined;
  if (!st.isFile()) throw bad("must be a regular file");
  if (st.size > MAX_MANIFEST_BYTES) throw bad(`is ${st.size} bytes; keep it under 1 MiB`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new InstallError("INVALID_MANIFEST", `${ARCHIVE_MANIFEST} in the archive is not JSON`, {
      cause: err,
    });
  }
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw bad("must be a JSON object");
  const m = json as Record<string, unknown>;
  const name = m.name === undefined ? undefined : m.name;
  if (name !== undefined && typeof name !== "string") throw bad('"name" must be a string');
  if (name !== undefined) checkExecutableName(name, ARCHIVE_MANIFEST);
  if (m.version !== undefined && typeof m.version !== "string")
    throw bad('"version" must be a string');
  const runtime = m.runtime as Record<string, unknown> | undefined;
  const binary = (runtime?.binary ?? undefined) as Record<string, unknown> | undefined;
  if (binary !== undefined && (binary === null || typeof binary !== "object"))
    throw bad('"runtime.binary" must be an object');
  const entry = binary?.entrypoint;
  let entrypoint: ArchiveManifest["entrypoint"];
  if (typeof entry === "string") entrypoint = entry;
  else if (entry !== undefined) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw bad('"runtime.binary.entrypoint" must be a path or {"default": …, "<platform>": …}');
    for (const [k, v] of Object.entries(entry))
      if (typeof v !== "string") throw bad(`"runtime.binary.entrypoint.${k}" must be a path`);
    entrypoint = entry as Record<string, string>;
  }
  const permissions: Record<string, number> = {};
  const perms = binary?.permissions;
  if (perms !== undefined) {
    if (perms === null || typeof perms !== "object" || Array.isArray(perms))
      throw bad('"runtime.binary.permissions" must map paths to modes, e.g. {"bin/x": "0o755"}');
    for (const [p, mode] of Object.entries(perms))
      permissions[p] = parseMode(mode, `"runtime.binary.permissions.${p}"`);
  }
  return { name, version: m.version as string | undefined, entrypoint, permissions };
}

/** A per-platform entrypoint map looked up as full key → OS segment → `default` (R77). */
export function entrypointFor(
  entry: ArchiveManifest["entrypoint"],
  platform: string,
): string | undefined {
  if (entry === undefined || typeof entry === "string") return entry;
  const os = platform.split("-")[0] ?? platform;
  return entry[platform] ?? entry[os] ?? entry.default;
}
