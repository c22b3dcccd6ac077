// Go plugins (R165 step 4, L11583): `go.mod` alone is an error (it names no tool), an
// executa.json `command` such as `go run ./cmd/<name>` is used as given, the default is
// `go run .`. No network here: when go.mod asks for a newer Go than installed, GOTOOLCHAIN=local
// stops Go ≥1.21 from downloading one (real-world-plugins.md "More traps").
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { goPackageMain, severalPluginsError } from "./plugin-entries.js";
import { isFile, readText } from "./project-files.js";
import {
  TOOLCHAINS,
  compareVersions,
  toolchainProblem,
  type ToolchainCheck,
} from "./tool-version.js";

export function goModWithoutExecutaJson(dir: string): LaunchError {
  return new LaunchError(
    "GO_MOD_WITHOUT_EXECUTA_JSON",
    `${path.join(dir, "go.mod")}: go.mod alone does not name the tool; add ${path.join(dir, "executa.json")} with {"tool_id": "<id>", "type": "go"}`,
    { path: path.join(dir, "go.mod") },
  );
}

export interface GoInput {
  dir: string;
  explicit: readonly string[] | undefined;
  /** A file picked with --plugin among several `package main` entries. */
  pluginFile?: string;
}

export async function goPlan(input: GoInput, ctx: DetectContext): Promise<LaunchPlan> {
  const { dir, explicit, pluginFile } = input;
  const warnings: string[] = [];
  let command: readonly string[];
  if (explicit !== undefined) {
    command = explicit;
  } else {
    const pkg = await goPackageMain(dir);
    if (pluginFile !== undefined) {
      // Only the named entry plus the shared helpers: the other entries also define main().
      command = ["go", "run", pluginFile, ...pkg.helpers.filter((h) => h !== pluginFile)];
    } else {
      const entries = pkg.mains.filter((m) => !m.ignoredByGoRunDot).map((m) => m.file);
      const tagged = pkg.mains.map((m) => m.file);
      if (entries.length > 1) throw severalPluginsError(dir, entries);
      if (entries.length === 0 && tagged.length > 1) throw severalPluginsError(dir, tagged);
      const onlyTagged = entries.length === 0 ? tagged[0] : undefined;
      // `go run .` would find no main when the only entry is tagged `ignore`.
      command =
        onlyTagged === undefined ? ["go", "run", "."] : ["go", "run", onlyTagged, ...pkg.helpers];
    }
  }
  if (path.basename(command[0] ?? "").replace(/\.exe$/i, "") !== "go") {
    return { command, warnings };
  }
  const env: Record<string, string> = {};
  const go = ctx.which("go");
  const wanted = await requiredGo(dir);
  const installed = go === undefined ? undefined : await ctx.versionOf(go);
  const toolchain: ToolchainCheck = {
    tool: "go",
    wanted: wanted ?? TOOLCHAINS.go.minimum,
    wantedBy: wanted === undefined ? "the oldest Go the SDK builds with" : "go.mod",
    found: installed,
    path: go,
  };
  if (go === undefined) {
    warnings.push(toolchainProblem(toolchain) ?? "go is not on PATH");
    return { command, warnings, env, toolchain };
  }
  if (wanted !== undefined && installed !== undefined && compareVersions(wanted, installed) > 0) {
    env.GOTOOLCHAIN = "local";
    warnings.push(
      `go.mod asks for go ${wanted} but go ${installed} is installed; set GOTOOLCHAIN=local so go does not download a toolchain (go ≥1.21 then refuses to build; install go ${wanted} if it does)`,
    );
  }
  return { command, warnings, env, toolchain };
}

/** The newest of go.mod's `go` and `toolchain` lines: either makes Go ≥1.21 switch toolchains. */
async function requiredGo(dir: string): Promise<string | undefined> {
  const file = path.join(dir, "go.mod");
  if (!(await isFile(file))) return undefined;
  const text = await readText(file);
  const versions = [
    /^go\s+(\d+(?:\.\d+)*)/m.exec(text)?.[1],
    /^toolchain\s+go(\d+(?:\.\d+)*)/m.exec(text)?.[1],
  ].filter((v): v is string => v !== undefined);
  return versions.sort(compareVersions).at(-1);
}
