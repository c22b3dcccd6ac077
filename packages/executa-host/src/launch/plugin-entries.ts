// Folders that hold several plugins side by side (real-world-plugins.md "Launching": a Go
// folder with `main.go`, `credential_plugin.go`, … each a `package main`). Listing the entries
// lets an error name them and `--plugin <file>` pick one.
import { readdir } from "node:fs/promises";
import * as path from "node:path";
import { LaunchError } from "./launch-error.js";
import { readText } from "./project-files.js";
import type { ExecutaType } from "./types.js";

export interface PluginEntry {
  /** File name relative to the folder. */
  file: string;
  type: Exclude<ExecutaType, "binary" | "mcp">;
}

const PYTHON_SCRIPT = /^(?:.+_plugin|main|plugin)\.py$/;
const NODE_SCRIPT = /\.(?:js|mjs|cjs)$/;
// Tooling files that sit next to Node plugins but are never one.
const NODE_NOT_A_PLUGIN = /(?:^\.|\.(?:config|test|spec|d)\.[cm]?js$)/;
/**
 * What a Node plugin's source contains: it speaks JSON-RPC on stdin, itself or through the SDK.
 * A build script or a helper next to it (`build.mjs`, `seed.js`) does not, and is not a plugin.
 */
const NODE_PLUGIN_SOURCE = /jsonrpc|executa-sdk|process\.stdin|["'](?:node:)?readline["']/i;
const GO_TEST_FILE = /_test\.go$/;
const GO_PACKAGE_MAIN = /^package\s+main\b/m;
const GO_FUNC_MAIN = /^func\s+main\s*\(\s*\)/m;
// `go run .` skips files tagged like this; `go run <file>` still runs them, which is how several
// plugins share one folder.
const GO_BUILD_IGNORE = /^\/\/go:build\s+ignore\b|^\/\/\s*\+build\s+ignore\b/m;

export interface GoPackageMain {
  /** Files with `func main()` (entries), sorted. */
  mains: { file: string; ignoredByGoRunDot: boolean }[];
  /** Other `package main` files without a build-ignore tag: compiled with whichever entry runs. */
  helpers: string[];
}

/** Candidate entry files at the top level of `dir`, sorted by name within each language. */
export async function listPluginEntries(dir: string): Promise<PluginEntry[]> {
  const names = await topLevelFiles(dir);
  const go = await goPackageMain(dir, names);
  return [
    ...go.mains.map((m) => ({ file: m.file, type: "go" as const })),
    ...(await nodeScripts(dir, names)).map((file) => ({ file, type: "node" as const })),
    ...names
      .filter((n) => PYTHON_SCRIPT.test(n))
      .map((file) => ({ file, type: "python" as const })),
  ];
}

export async function pythonScripts(dir: string): Promise<string[]> {
  return (await topLevelFiles(dir)).filter((n) => PYTHON_SCRIPT.test(n));
}

/** Top-level `.js/.mjs/.cjs` files whose source speaks JSON-RPC (see NODE_PLUGIN_SOURCE). */
export async function nodeScripts(dir: string, names?: string[]): Promise<string[]> {
  const candidates = (names ?? (await topLevelFiles(dir))).filter(
    (n) => NODE_SCRIPT.test(n) && !NODE_NOT_A_PLUGIN.test(n),
  );
  const out: string[] = [];
  for (const file of candidates) {
    const source = await readText(path.join(dir, file)).catch(() => "");
    if (NODE_PLUGIN_SOURCE.test(source)) out.push(file);
  }
  return out;
}

export async function goPackageMain(dir: string, names?: string[]): Promise<GoPackageMain> {
  const files = (names ?? (await topLevelFiles(dir))).filter(
    (n) => n.endsWith(".go") && !GO_TEST_FILE.test(n),
  );
  const result: GoPackageMain = { mains: [], helpers: [] };
  for (const file of files) {
    const source = await readText(path.join(dir, file));
    if (!GO_PACKAGE_MAIN.test(source)) continue;
    const ignored = GO_BUILD_IGNORE.test(source);
    if (GO_FUNC_MAIN.test(source)) result.mains.push({ file, ignoredByGoRunDot: ignored });
    else if (!ignored) result.helpers.push(file);
  }
  return result;
}

export function severalPluginsError(dir: string, files: readonly string[]): LaunchError {
  return new LaunchError(
    "AMBIGUOUS_PLUGIN",
    `${dir}: this folder holds several plugins: ${files.join(", ")} — pick one with --plugin`,
    { path: dir },
  );
}

async function topLevelFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => e.name)
    .sort();
}
