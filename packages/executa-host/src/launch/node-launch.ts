// Node plugins (R165 step 3, L11583): `node <entry>` with entry = bin[tool_id] → bin (string)
// → first bin value → main → module. Never npm: plugins need no install to run
// (real-world-plugins.md "Launching"), and `.mjs` entries are fine as they are.
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { nodeScripts, severalPluginsError } from "./plugin-entries.js";
import { isFile, isRecord } from "./project-files.js";

// Node's own resolution of an extension-less `main` ("lib/index" → lib/index.js).
const NODE_RESOLVE_SUFFIXES = ["", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs"];

/** tool_id of a package.json folder: `executa.tool_id` → first `bin` key → `name` (R165). */
export function nodeToolId(pkg: Record<string, unknown>): string | undefined {
  const executa = pkg.executa;
  if (isRecord(executa) && typeof executa.tool_id === "string" && executa.tool_id !== "") {
    return executa.tool_id;
  }
  if (isRecord(pkg.bin)) {
    const first = Object.keys(pkg.bin)[0];
    if (first !== undefined) return first;
  }
  return typeof pkg.name === "string" && pkg.name !== "" ? pkg.name : undefined;
}

export interface NodeInput {
  dir: string;
  toolId: string;
  pkg: Record<string, unknown> | undefined;
  explicit: readonly string[] | undefined;
}

export async function nodePlan(input: NodeInput, ctx: DetectContext): Promise<LaunchPlan> {
  const warnings: string[] = [];
  if (input.explicit !== undefined) return { command: input.explicit, warnings };
  const node = ctx.which("node") !== undefined ? "node" : process.execPath;
  const entry = await nodeEntry(input, warnings);
  return { command: [node, entry], warnings };
}

async function nodeEntry(input: NodeInput, warnings: string[]): Promise<string> {
  const { dir, toolId, pkg } = input;
  const named = pkg === undefined ? [] : entryCandidates(pkg, toolId);
  for (const candidate of named) {
    const file = await resolveFile(path.resolve(dir, candidate.value));
    if (file !== undefined) return file;
  }
  const first = named[0];
  if (first !== undefined) {
    throw new LaunchError(
      "NO_PLUGIN_FOUND",
      `${path.join(dir, "package.json")}: ${first.field} points to ${first.value}, which does not exist; build it or point bin/main at an existing file`,
      { path: path.join(dir, "package.json") },
    );
  }
  const scripts = await nodeScripts(dir);
  const index = scripts.find((s) => /^index\.[cm]?js$/.test(s));
  if (scripts.length === 1 || index !== undefined) {
    const chosen = index ?? (scripts[0] as string);
    warnings.push(
      pkg === undefined
        ? `no package.json; starting ${chosen}`
        : `package.json has no bin, main or module; starting ${chosen}`,
    );
    return path.join(dir, chosen);
  }
  if (scripts.length > 1) throw severalPluginsError(dir, scripts);
  throw new LaunchError(
    "NO_PLUGIN_FOUND",
    `${dir}: no Node entry found; set "bin" or "main" in package.json (or add a "command" to executa.json)`,
    { path: dir },
  );
}

function entryCandidates(
  pkg: Record<string, unknown>,
  toolId: string,
): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const bin = pkg.bin;
  if (typeof bin === "string" && bin !== "") out.push({ field: "bin", value: bin });
  if (isRecord(bin)) {
    const own = bin[toolId];
    if (typeof own === "string") out.push({ field: `bin["${toolId}"]`, value: own });
    const firstKey = Object.keys(bin)[0];
    const firstValue = firstKey === undefined ? undefined : bin[firstKey];
    if (typeof firstValue === "string" && firstValue !== own) {
      out.push({ field: `bin["${firstKey}"]`, value: firstValue });
    }
  }
  for (const field of ["main", "module"]) {
    const value = pkg[field];
    if (typeof value === "string" && value !== "") out.push({ field, value });
  }
  return out;
}

async function resolveFile(base: string): Promise<string | undefined> {
  for (const suffix of NODE_RESOLVE_SUFFIXES) {
    if (await isFile(base + suffix)) return base + suffix;
  }
  return undefined;
}
