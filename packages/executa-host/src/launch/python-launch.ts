// Python plugins (R165 step 2, L11583; real-world-plugins.md "Launching"). The documented
// default is `uv run --project <dir> <tool_id>`, but uv is often missing and the plugins use only
// the standard library, so without uv the `[project.scripts]` target (or the single plugin
// script) is started with python3 directly. Plugins run in place: cwd is their folder.
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { pythonScripts, severalPluginsError } from "./plugin-entries.js";
import { isDirectory, isFile, isRecord } from "./project-files.js";
import {
  TOOLCHAINS,
  meetsRequiresPython,
  requiresPythonMinimum,
  toolchainProblem,
  type ToolchainCheck,
} from "./tool-version.js";

export interface PythonProject {
  /** `[project.scripts]` in file order: [name, "module:function"]. */
  scripts: [string, string][];
  name: string | undefined;
  requiresPython: string | undefined;
  /** `[project] dependencies` that no `[tool.uv.sources]` path provides: only uv installs them. */
  hasDependencies: boolean;
  /** `[tool.uv.sources] name = { path = "…" }` values, as written (relative to the project). */
  pathSources: string[];
}

export function readPythonProject(table: Record<string, unknown>): PythonProject {
  const project = isRecord(table.project) ? table.project : {};
  const scripts = isRecord(project.scripts)
    ? Object.entries(project.scripts).filter((e): e is [string, string] => typeof e[1] === "string")
    : [];
  const sources = uvPathSources(table);
  const dependencies = Array.isArray(project.dependencies) ? project.dependencies : [];
  return {
    scripts,
    name: typeof project.name === "string" && project.name !== "" ? project.name : undefined,
    requiresPython:
      typeof project["requires-python"] === "string" ? project["requires-python"] : undefined,
    hasDependencies: dependencies.some(
      (d) => typeof d !== "string" || !sources.has(requirementName(d)),
    ),
    pathSources: [...sources.values()],
  };
}

/** PEP 503 normalised name → path of every `[tool.uv.sources]` entry with a `path`. */
function uvPathSources(table: Record<string, unknown>): Map<string, string> {
  const tool = isRecord(table.tool) ? table.tool : {};
  const uv = isRecord(tool.uv) ? tool.uv : {};
  const sources = isRecord(uv.sources) ? uv.sources : {};
  const out = new Map<string, string>();
  for (const [name, source] of Object.entries(sources)) {
    if (isRecord(source) && typeof source.path === "string" && source.path !== "") {
      out.set(normaliseName(name), source.path);
    }
  }
  return out;
}

/** "executa-sdk[extra] >= 0.1; python_version>'3'" → "executa-sdk" (normalised). */
function requirementName(requirement: string): string {
  return normaliseName(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? requirement);
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/**
 * What Python must see on sys.path to import each path source without installing it: the
 * project's `src/` in a src layout, else the folder itself (a wheel or sdist file as is: a pure
 * wheel imports from sys.path). Missing paths are reported, not fatal: the import error names them.
 */
async function pathSourceRoots(
  dir: string,
  project: PythonProject | undefined,
  warnings: string[],
): Promise<string[]> {
  const roots: string[] = [];
  for (const source of project?.pathSources ?? []) {
    const target = path.resolve(dir, source);
    if (await isDirectory(path.join(target, "src"))) roots.push(path.join(target, "src"));
    else if ((await isDirectory(target)) || (await isFile(target))) roots.push(target);
    else {
      warnings.push(
        `pyproject.toml [tool.uv.sources] path "${source}" does not exist (${target}); its package will not be importable`,
      );
    }
  }
  return roots;
}

export interface PythonInput {
  dir: string;
  toolId: string;
  project: PythonProject | undefined;
  /** executa.json `command`; used as given unless it needs a missing uv. */
  explicit: readonly string[] | undefined;
}

export async function pythonPlan(input: PythonInput, ctx: DetectContext): Promise<LaunchPlan> {
  const plan = await basePlan(input, ctx);
  const launcher = path.basename(plan.command[0] ?? "").replace(/\.exe$/i, "");
  // uv installs path sources into its environment itself; python3 needs them on PYTHONPATH.
  if (launcher === "uv") return plan;
  const roots = await pathSourceRoots(input.dir, input.project, plan.warnings);
  const withSources: LaunchPlan =
    roots.length > 0 ? { ...plan, pathPrepend: { PYTHONPATH: roots } } : plan;
  if (launcher !== "python3" && launcher !== "python") return withSources;
  return { ...withSources, toolchain: await pythonToolchain(plan, input.project, ctx) };
}

async function pythonToolchain(
  plan: LaunchPlan,
  project: PythonProject | undefined,
  ctx: DetectContext,
): Promise<ToolchainCheck> {
  const found = ctx.which(plan.command[0] ?? "python3");
  const wanted =
    project?.requiresPython === undefined
      ? undefined
      : requiresPythonMinimum(project.requiresPython);
  const toolchain: ToolchainCheck = {
    tool: "python3",
    wanted: wanted ?? TOOLCHAINS.python3.minimum,
    wantedBy:
      wanted === undefined
        ? "the oldest Python the SDK runs on"
        : `pyproject.toml requires-python "${project?.requiresPython ?? ""}"`,
    found: found === undefined ? undefined : await ctx.versionOf(found),
    path: found,
  };
  const problem = found === undefined ? toolchainProblem(toolchain) : undefined;
  if (problem !== undefined) plan.warnings.push(problem);
  return toolchain;
}

async function basePlan(input: PythonInput, ctx: DetectContext): Promise<LaunchPlan> {
  const { dir, toolId, project, explicit } = input;
  const warnings: string[] = [];
  const env = { PYTHONUNBUFFERED: "1" };
  const uv = ctx.which("uv");
  if (explicit !== undefined && (explicit[0] !== "uv" || uv !== undefined)) {
    return { command: explicit, warnings, env };
  }
  if (explicit !== undefined) {
    warnings.push(
      `uv not found on PATH; ignoring the executa.json command and starting with python3`,
    );
  }

  const python = findPython(ctx);
  const tooNew = await requiresNewerPython(project, python, ctx);

  const script = pickScript(project, toolId, warnings);
  if (uv !== undefined && script !== undefined && tooNew === undefined) {
    return { command: ["uv", "run", "--project", dir, script.name], warnings, env };
  }
  if (tooNew !== undefined) {
    warnings.push(
      `pyproject.toml requires-python "${tooNew.wanted}" is above the installed Python ${tooNew.installed}; starting with ${python.name} anyway`,
    );
  } else if (uv === undefined && explicit === undefined && project?.hasDependencies === true) {
    // A stdlib-only plugin needs nothing from uv: python3 is the whole runtime, so no warning.
    warnings.push(
      `pyproject.toml declares dependencies and uv is not on PATH; starting with ${python.name} directly, so they must be importable there (or install uv)`,
    );
  }

  if (script !== undefined) {
    const target = await entryPointCommand(dir, python.name, script);
    if (target !== undefined) return { command: target, warnings, env };
    warnings.push(
      `[project.scripts] ${script.name} = "${script.target}" names a module not found under ${dir}; looking for a plugin script`,
    );
  }

  const scripts = await pythonScripts(dir);
  if (scripts.length > 1) throw severalPluginsError(dir, scripts);
  const only = scripts[0];
  if (only === undefined) {
    throw new LaunchError(
      "NO_PLUGIN_FOUND",
      `${dir}: no Python entry point found; add [project.scripts] ${toolId} = "module:main" to pyproject.toml, a single *_plugin.py/main.py/plugin.py, or a "command" in executa.json`,
      { path: dir },
    );
  }
  if (uv !== undefined && project?.hasDependencies === true && tooNew === undefined) {
    // The project's dependencies are only importable inside uv's environment.
    return {
      command: ["uv", "run", "--project", dir, "python", path.join(dir, only)],
      warnings,
      env,
    };
  }
  return { command: [python.name, path.join(dir, only)], warnings, env };
}

interface Script {
  name: string;
  target: string;
}

function pickScript(
  project: PythonProject | undefined,
  toolId: string,
  warnings: string[],
): Script | undefined {
  const scripts = project?.scripts ?? [];
  const exact = scripts.find(([name]) => name === toolId);
  const chosen = exact ?? scripts[0];
  if (chosen === undefined) return undefined;
  if (exact === undefined) {
    warnings.push(
      `tool_id "${toolId}" is not a [project.scripts] key in pyproject.toml; starting script "${chosen[0]}"`,
    );
  }
  return { name: chosen[0], target: chosen[1] };
}

function findPython(ctx: DetectContext): { name: string; path?: string } {
  for (const name of ["python3", "python"]) {
    const found = ctx.which(name);
    if (found !== undefined) return { name, path: found };
  }
  // Not a warning here: pythonPlan reports the missing launcher with the version it needs.
  return { name: "python3" };
}

async function requiresNewerPython(
  project: PythonProject | undefined,
  python: { path?: string },
  ctx: DetectContext,
): Promise<{ wanted: string; installed: string } | undefined> {
  const wanted = project?.requiresPython;
  if (wanted === undefined || python.path === undefined) return undefined;
  const installed = await ctx.versionOf(python.path);
  if (installed === undefined || meetsRequiresPython(installed, wanted)) return undefined;
  return { wanted, installed };
}

/**
 * argv that runs a `[project.scripts]` target without installing the project. `-c` imports the
 * module and calls the function, exactly what the console-script wrapper uv would generate does;
 * `-m module` would only work for modules with a `__main__` guard. The folder holding the module
 * (the plugin folder, or `src/` for src-layout projects) goes first on sys.path.
 */
async function entryPointCommand(
  dir: string,
  python: string,
  script: Script,
): Promise<string[] | undefined> {
  // "pkg.mod:obj.func [extra]": extras only matter to installers.
  const target = script.target.replace(/\[.*\]\s*$/, "").trim();
  const [moduleName = "", attrs = ""] = target.split(":", 2).map((s) => s.trim());
  if (!/^[A-Za-z_][\w.]*$/.test(moduleName)) return undefined;
  const root = await moduleRoot(dir, moduleName);
  if (root === undefined) return undefined;
  const py = (value: unknown): string => JSON.stringify(value);
  if (attrs === "") {
    const code = `import sys, runpy; sys.path.insert(0, ${py(root)}); runpy.run_module(${py(moduleName)}, run_name="__main__", alter_sys=True)`;
    return [python, "-c", code];
  }
  const code =
    `import sys, importlib, functools; sys.path.insert(0, ${py(root)}); sys.argv[0] = ${py(script.name)}; ` +
    `sys.exit(functools.reduce(getattr, ${py(attrs.split("."))}, importlib.import_module(${py(moduleName)}))())`;
  return [python, "-c", code];
}

async function moduleRoot(dir: string, moduleName: string): Promise<string | undefined> {
  const relative = moduleName.split(".").join(path.sep);
  for (const root of [dir, path.join(dir, "src")]) {
    const base = path.join(root, relative);
    if ((await isFile(`${base}.py`)) || (await isFile(path.join(base, "__init__.py")))) return root;
  }
  return undefined;
}
