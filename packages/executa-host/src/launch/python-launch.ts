// Python plugins (R165 step 2, L11583; real-world-plugins.md "Launching"). The documented
// default is `uv run --project <dir> <tool_id>`, but uv is often missing and the plugins use only
// the standard library, so without uv the `[project.scripts]` target (or the single plugin
// script) is started with python3 directly. Plugins run in place: cwd is their folder.
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { pythonScripts, severalPluginsError } from "./plugin-entries.js";
import { isFile, isRecord } from "./project-files.js";
import { meetsRequiresPython } from "./tool-version.js";

export interface PythonProject {
  /** `[project.scripts]` in file order: [name, "module:function"]. */
  scripts: [string, string][];
  name: string | undefined;
  requiresPython: string | undefined;
  hasDependencies: boolean;
}

export function readPythonProject(table: Record<string, unknown>): PythonProject {
  const project = isRecord(table.project) ? table.project : {};
  const scripts = isRecord(project.scripts)
    ? Object.entries(project.scripts).filter((e): e is [string, string] => typeof e[1] === "string")
    : [];
  return {
    scripts,
    name: typeof project.name === "string" && project.name !== "" ? project.name : undefined,
    requiresPython:
      typeof project["requires-python"] === "string" ? project["requires-python"] : undefined,
    hasDependencies: Array.isArray(project.dependencies) && project.dependencies.length > 0,
  };
}

export interface PythonInput {
  dir: string;
  toolId: string;
  project: PythonProject | undefined;
  /** executa.json `command`; used as given unless it needs a missing uv. */
  explicit: readonly string[] | undefined;
}

export async function pythonPlan(input: PythonInput, ctx: DetectContext): Promise<LaunchPlan> {
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

  const python = findPython(ctx, warnings);
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

function findPython(ctx: DetectContext, warnings: string[]): { name: string; path?: string } {
  for (const name of ["python3", "python"]) {
    const found = ctx.which(name);
    if (found !== undefined) return { name, path: found };
  }
  warnings.push("python3 not found on PATH; install Python 3 to run this plugin");
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
