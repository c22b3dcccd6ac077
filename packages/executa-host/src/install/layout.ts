// Where installs live (R79): `~/.anna/executa/` (or ANNA_EXECUTA_HOME, absolute), with
// `tools/{tool_id}/v{version}/` per version, `tools/{tool_id}/current` → the active one, and the
// `bin/{name}` shims. Every name that becomes a path segment goes through one sanitiser.
import { homedir } from "node:os";
import * as path from "node:path";
import { InstallError } from "./install-error.js";

export const HOME_ENV = "ANNA_EXECUTA_HOME";
export const KEEP_VERSIONS_ENV = "EXECUTA_KEEP_VERSIONS";
export const INSTALL_V2_ENV = "EXECUTA_INSTALL_V2";
/** Old versions kept after an install when EXECUTA_KEEP_VERSIONS is unset (R79). */
export const DEFAULT_KEEP_VERSIONS = 1;
export const INSTALL_FILE = "INSTALL.json";
export const CURRENT_LINK = "current";

/** The install root: `ANNA_EXECUTA_HOME` when set (must be absolute), else `~/.anna/executa`. */
export function executaHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env[HOME_ENV];
  if (set !== undefined && set !== "") {
    if (!path.isAbsolute(set)) {
      throw new InstallError(
        "INVALID_REQUEST",
        `${HOME_ENV}=${set} must be an absolute path (e.g. ${path.join(homedir(), ".anna", "executa")})`,
      );
    }
    return path.resolve(set);
  }
  return path.join(homedir(), ".anna", "executa");
}

/** `EXECUTA_KEEP_VERSIONS`: a non-negative integer, else the default. */
export function keepVersions(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[KEEP_VERSIONS_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_KEEP_VERSIONS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new InstallError(
      "INVALID_REQUEST",
      `${KEEP_VERSIONS_ENV}=${raw} must be a whole number of old versions to keep (0 or more)`,
    );
  }
  return n;
}

/** `EXECUTA_INSTALL_V2=0` (or `false`/`off`/`no`) selects the legacy single-file layout. */
export function legacyInstall(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env[INSTALL_V2_ENV]?.trim().toLowerCase();
  return raw === "0" || raw === "false" || raw === "off" || raw === "no";
}

/**
 * One flat `[A-Za-z0-9._-]+` segment (`sanitize_tool_id`): `@scope/pkg` → `_scope_pkg`. A leading
 * dot becomes `_` so a tool can never be named like the install's own `.staging-*`/`.old-*`
 * folders, nor be `.` or `..`.
 */
export function sanitizeSegment(raw: string, fallback: string): string {
  const flat = raw.trim().replace(/[^A-Za-z0-9._-]/g, "_");
  if (flat === "") return fallback;
  return flat.startsWith(".") ? `_${flat.slice(1)}` : flat;
}

export const sanitizeToolId = (toolId: string): string => sanitizeSegment(toolId, "unknown");
export const sanitizeVersion = (version: string | undefined): string =>
  sanitizeSegment(version ?? "", "unknown");

export interface ToolPaths {
  home: string;
  toolId: string;
  /** `tools/{tool_id}` */
  toolDir: string;
  /** `tools/{tool_id}/current` */
  current: string;
  bin: string;
}

/** `binDir` replaces `{home}/bin` for the shims (the published CLI's `--bin-dir`). */
export function toolPaths(home: string, toolId: string, binDir?: string): ToolPaths {
  const id = sanitizeToolId(toolId);
  const toolDir = path.join(home, "tools", id);
  return {
    home,
    toolId: id,
    toolDir,
    current: path.join(toolDir, CURRENT_LINK),
    bin: binDir === undefined ? path.join(home, "bin") : path.resolve(binDir),
  };
}

/** The version folder's name: `v{version}`. */
export const versionDirName = (version: string): string => `v${sanitizeVersion(version)}`;
