// Turns what a detector found into a LaunchSpec, adding the environment every Executa sees
// (R52) and, for binaries, the multi-file layout variables (T35, L2659–L2672).
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { isDirectory } from "./project-files.js";
import { envKey } from "./which.js";
import { libraryPathVar, prependPaths } from "./path-env.js";
import type { ToolchainCheck } from "./tool-version.js";
import type { ExecutaType, LaunchSpec } from "./types.js";

export interface SpecParts {
  toolId: string;
  type: ExecutaType;
  /** Absolute plugin folder; also the cwd and EXECUTA_HOME. */
  dir: string;
  command: readonly string[];
  source: string;
  warnings: readonly string[];
  /** Type-specific variables (PYTHONUNBUFFERED, GOTOOLCHAIN, …). */
  env?: Readonly<Record<string, string>>;
  toolchain?: ToolchainCheck;
  /** Type-specific folders for PATH-like variables, merged over the user's value. */
  pathPrepend?: Readonly<Record<string, readonly string[]>>;
}

export async function finishSpec(parts: SpecParts, ctx: DetectContext): Promise<LaunchSpec> {
  const home = parts.dir;
  const env: Record<string, string> = { ...parts.env, EXECUTA_HOME: home };
  const dataDir = path.join(home, "data");
  if (await isDirectory(dataDir)) env.EXECUTA_DATA = dataDir;

  const pathPrepend: Record<string, string[]> = {};
  for (const [name, folders] of Object.entries(parts.pathPrepend ?? {})) {
    pathPrepend[name] = [...folders];
  }
  if (parts.type === "binary") {
    const libs: string[] = [];
    for (const name of ["lib", "lib64"]) {
      const lib = path.join(home, name);
      if (await isDirectory(lib)) libs.push(lib);
    }
    const libVar = libraryPathVar(ctx.platform);
    if (libVar !== undefined && libs.length > 0) pathPrepend[libVar] = libs;
    const binPrefix: string[] = [];
    const shareBin = path.join(home, "share", "bin");
    if (await isDirectory(shareBin)) binPrefix.push(shareBin);
    // Windows finds DLLs through PATH (L2670).
    if (ctx.platform === "win32") binPrefix.push(...libs);
    if (binPrefix.length > 0) pathPrepend.PATH = binPrefix;
  }
  // Windows spells it `Path`: keep the user's spelling so a spawner's `{...env, ...spec.env}`
  // does not end up with two PATH variables.
  const windows = ctx.platform === "win32";
  const prepend: Record<string, string[]> = {};
  for (const [name, prefix] of Object.entries(pathPrepend)) {
    const key = envKey(ctx.env, name, windows);
    prepend[key] = prefix;
    env[key] = prependPaths(prefix, ctx.env[key], ctx.platform);
  }

  return {
    toolId: parts.toolId,
    type: parts.type,
    dir: parts.dir,
    command: [...parts.command],
    cwd: home,
    env,
    ...(Object.keys(prepend).length > 0 ? { pathPrepend: prepend } : {}),
    // An MCP server is often `npx`/`uvx` fetching itself on first start: give it the binary budget.
    binaryColdStart: parts.type === "binary" || parts.type === "mcp",
    source: parts.source,
    warnings: [...parts.warnings],
    ...(parts.toolchain ? { toolchain: parts.toolchain } : {}),
  };
}
