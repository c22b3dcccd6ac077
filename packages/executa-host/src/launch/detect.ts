// Finding how to start the plugin in a folder, in the order the Reference gives (R165, R167,
// L11581–L11600): executa.json → pyproject.toml → package.json → go.mod alone is an error →
// bin/<name>. `anna-app dev` discovery and `anna-app executa dev` share this one parser.
import * as path from "node:path";
import { binExecutables, binaryPlan, findBinary } from "./binary-launch.js";
import { detectContext } from "./detect-context.js";
import type { DetectContext, DetectOptions } from "./detect-context.js";
import { isDisabled, readExecutaJsonRaw, validateExecutaJson } from "./executa-json.js";
import { finishSpec } from "./finish-spec.js";
import { goModWithoutExecutaJson, goPlan } from "./go-launch.js";
import { mcpPlan } from "./mcp-launch.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { nodePlan, nodeToolId } from "./node-launch.js";
import { listPluginEntries, severalPluginsError } from "./plugin-entries.js";
import { isDirectory, isFile, readJsonObject, readTomlTable } from "./project-files.js";
import { pythonPlan, readPythonProject } from "./python-launch.js";
import { bareSkill, skillFromExecutaJson, skillMessage, type SkillFolder } from "./skill-folder.js";
import type { ExecutaType, LaunchSpec } from "./types.js";
import { isExecutableFile } from "./which.js";

export interface DetectLaunchOptions extends DetectOptions {
  /**
   * One entry file (relative to the folder) when the folder holds several plugins: `.go` →
   * `go run <file>`, `.js/.mjs/.cjs` → `node <file>`, `.py` → `python3 <file>`, else an executable.
   */
  pluginFile?: string;
  /** Identity for a `pluginFile` or a lone script (default: file name without extension / folder name). */
  toolId?: string;
}

/** What one folder holds, before discovery applies `enabled` and duplicate rules. */
export type FolderResult =
  | { kind: "spec"; spec: LaunchSpec }
  | { kind: "disabled"; file: string }
  | { kind: "skill"; skill: SkillFolder }
  | { kind: "none" };

/**
 * The LaunchSpec for the plugin in `dir` (`anna-app executa dev --dir`). Throws a LaunchError
 * when the folder holds no plugin, several, or a broken marker file. `enabled: false` in
 * executa.json does not stop an explicitly named folder.
 */
export async function detectLaunchSpec(
  dir: string,
  options: DetectLaunchOptions = {},
): Promise<LaunchSpec> {
  const root = await existingDir(dir);
  const ctx = detectContext(options);
  if (options.pluginFile !== undefined) {
    return specForPluginFile(root, options.pluginFile, options.toolId, ctx);
  }
  const found = await detectInFolder(root, ctx, { skipDisabled: false });
  if (found.kind === "spec") return found.spec;
  if (found.kind === "skill")
    throw new LaunchError("IS_SKILL", skillMessage(found.skill), { path: root });

  // No marker file: a lone plugin script still runs (real plugins ship bare `*_plugin.py`).
  const entries = await listPluginEntries(root);
  if (entries.length > 1)
    throw severalPluginsError(
      root,
      entries.map((e) => e.file),
    );
  const only = entries[0];
  const skill = only === undefined ? await bareSkill(root) : undefined;
  if (skill !== undefined) throw new LaunchError("IS_SKILL", skillMessage(skill), { path: root });
  if (only !== undefined) {
    const spec = await specForPluginFile(
      root,
      only.file,
      options.toolId ?? path.basename(root),
      ctx,
    );
    return {
      ...spec,
      warnings: [
        `no executa.json, pyproject.toml or package.json; starting ${only.file}`,
        ...spec.warnings,
      ],
    };
  }
  throw new LaunchError(
    "NO_PLUGIN_FOUND",
    `${root}: no plugin found; add executa.json with "tool_id" and "type" (or a pyproject.toml, package.json or bin/${path.basename(root)})`,
    { path: root },
  );
}

/**
 * The marker-file rules alone; a folder without markers is `none` (discovery skips it silently).
 * With `skipDisabled`, an executa.json with `enabled: false` is reported before anything else is
 * checked, so a parked draft never produces warnings or errors.
 */
export async function detectInFolder(
  dir: string,
  ctx: DetectContext,
  options: { skipDisabled: boolean },
): Promise<FolderResult> {
  const folderName = path.basename(dir);
  const executaJsonFile = path.join(dir, "executa.json");
  const pyprojectFile = path.join(dir, "pyproject.toml");
  const packageJsonFile = path.join(dir, "package.json");

  if (await isFile(executaJsonFile)) {
    const raw = await readExecutaJsonRaw(executaJsonFile);
    if (options.skipDisabled && isDisabled(raw)) return { kind: "disabled", file: executaJsonFile };
    const skill = skillFromExecutaJson(raw, dir);
    if (skill !== undefined) return { kind: "skill", skill };
    const manifest = validateExecutaJson(raw, executaJsonFile);
    const plan = await planForType(manifest.type, dir, manifest.toolId, manifest.command, ctx);
    const spec = await finish(dir, manifest.toolId, manifest.type, "executa.json", plan, ctx);
    return { kind: "spec", spec };
  }
  if (await isFile(pyprojectFile)) {
    const project = readPythonProject(await readTomlTable(pyprojectFile, "INVALID_PROJECT_FILE"));
    const toolId = project.scripts[0]?.[0] ?? project.name ?? folderName;
    const plan = await pythonPlan({ dir, toolId, project, explicit: undefined }, ctx);
    return {
      kind: "spec",
      spec: await finish(dir, toolId, "python", "pyproject.toml", plan, ctx),
    };
  }
  if (await isFile(packageJsonFile)) {
    const pkg = await readJsonObject(packageJsonFile, "INVALID_PROJECT_FILE");
    const toolId = nodeToolId(pkg) ?? folderName;
    const plan = await nodePlan({ dir, toolId, pkg, explicit: undefined }, ctx);
    return {
      kind: "spec",
      spec: await finish(dir, toolId, "node", "package.json", plan, ctx),
    };
  }
  if (await isFile(path.join(dir, "go.mod"))) throw goModWithoutExecutaJson(dir);

  let binary = await findBinary(dir, [folderName], ctx);
  const warnings: string[] = [];
  if (binary === undefined) {
    // An installed bundle's entry is not always named after its folder (`tools/<id>/current`).
    const executables = await binExecutables(dir, ctx);
    if (executables.length === 1 && executables[0] !== undefined) {
      binary = path.join(dir, "bin", executables[0]);
      warnings.push(`no bin/${folderName}; starting the only executable bin/${executables[0]}`);
    }
  }
  if (binary !== undefined) {
    const plan: LaunchPlan = { command: [binary], warnings };
    return {
      kind: "spec",
      spec: await finish(dir, folderName, "binary", "bin/", plan, ctx),
    };
  }
  const skill = await bareSkill(dir);
  return skill === undefined ? { kind: "none" } : { kind: "skill", skill };
}

async function planForType(
  type: ExecutaType,
  dir: string,
  toolId: string,
  explicit: readonly string[] | undefined,
  ctx: DetectContext,
): Promise<LaunchPlan> {
  switch (type) {
    case "python": {
      // A pyproject next to executa.json still tells which script to run without uv.
      const pyproject = path.join(dir, "pyproject.toml");
      const project = (await isFile(pyproject))
        ? readPythonProject(await readTomlTable(pyproject, "INVALID_PROJECT_FILE"))
        : undefined;
      return pythonPlan({ dir, toolId, project, explicit }, ctx);
    }
    case "node": {
      const packageJson = path.join(dir, "package.json");
      const pkg = (await isFile(packageJson))
        ? await readJsonObject(packageJson, "INVALID_PROJECT_FILE")
        : undefined;
      return nodePlan({ dir, toolId, pkg, explicit }, ctx);
    }
    case "go":
      return goPlan({ dir, explicit }, ctx);
    case "binary":
      return binaryPlan({ dir, toolId, explicit }, ctx);
    case "mcp":
      return mcpPlan(dir, explicit);
  }
}

/** Spec for an explicit `type=`/`command=` pair (the `--spec`/`--executa` strings). */
export async function specForType(
  dir: string,
  toolId: string,
  type: ExecutaType,
  explicit: readonly string[] | undefined,
  source: string,
  ctx: DetectContext,
): Promise<LaunchSpec> {
  const plan = await planForType(type, dir, toolId, explicit, ctx);
  return finish(dir, toolId, type, source, plan, ctx);
}

async function specForPluginFile(
  dir: string,
  pluginFile: string,
  toolId: string | undefined,
  ctx: DetectContext,
): Promise<LaunchSpec> {
  const file = path.resolve(dir, pluginFile);
  const relative = path.relative(dir, file);
  if (!(await isFile(file))) {
    const entries = (await listPluginEntries(dir)).map((e) => e.file);
    const hint = entries.length > 0 ? `pick one of: ${entries.join(", ")}` : "check the path";
    throw new LaunchError("NO_PLUGIN_FOUND", `${file}: plugin file does not exist; ${hint}`, {
      path: file,
    });
  }
  const id = toolId ?? path.basename(file).replace(/\.[^.]+$/, "");
  const ext = path.extname(file).toLowerCase();
  let type: ExecutaType;
  let plan: LaunchPlan;
  if (ext === ".go") {
    type = "go";
    plan = await goPlan({ dir, explicit: undefined, pluginFile: relative }, ctx);
  } else if (ext === ".js" || ext === ".mjs" || ext === ".cjs") {
    type = "node";
    plan = {
      command: [ctx.which("node") !== undefined ? "node" : process.execPath, file],
      warnings: [],
    };
  } else if (ext === ".py") {
    type = "python";
    const python =
      ctx.which("python3") !== undefined || ctx.which("python") === undefined
        ? "python3"
        : "python";
    plan = { command: [python, file], warnings: [], env: { PYTHONUNBUFFERED: "1" } };
  } else if (isExecutableFile(file, ctx.platform === "win32")) {
    type = "binary";
    plan = { command: [file], warnings: [] };
  } else {
    throw new LaunchError(
      "NO_PLUGIN_FOUND",
      `${file}: not a .go, .js/.mjs/.cjs or .py file and not executable; pick a plugin entry file`,
      { path: file },
    );
  }
  return finish(dir, id, type, "--plugin", plan, ctx);
}

function finish(
  dir: string,
  toolId: string,
  type: ExecutaType,
  source: string,
  plan: LaunchPlan,
  ctx: DetectContext,
): Promise<LaunchSpec> {
  return finishSpec(
    {
      toolId,
      type,
      dir,
      command: plan.command,
      source,
      warnings: plan.warnings,
      ...(plan.env ? { env: plan.env } : {}),
      ...(plan.pathPrepend ? { pathPrepend: plan.pathPrepend } : {}),
      ...(plan.toolchain ? { toolchain: plan.toolchain } : {}),
    },
    ctx,
  );
}

/** Absolute path of an existing folder, else MISSING_DIRECTORY. */
export async function existingDir(dir: string): Promise<string> {
  const root = path.resolve(dir);
  if (!(await isDirectory(root))) {
    throw new LaunchError(
      "MISSING_DIRECTORY",
      `${root}: no such directory; pass the plugin folder`,
      {
        path: root,
      },
    );
  }
  return root;
}
