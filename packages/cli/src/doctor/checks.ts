// What `anna-app doctor` checks and what each missing piece disables. Required for OUR
// toolchain: Node ≥ 20.19 (the CLI, the host and SDK plugins run on it) and a working dev key
// (per-invoke tokens, H15). Everything else is optional and disables one specific thing
// (docs/decisions.md, "doctor").
import { stat } from "node:fs/promises";
import type { CheckResult } from "./check.js";
import { compareVersions, type VersionProbe } from "./probe.js";

/** package.json `engines.node` of every package here. */
export const MIN_NODE_VERSION = "20.19.0";
/** `requires-python` of the python template. */
export const MIN_PYTHON_VERSION = "3.8";
/** The `go` line of the go template's go.mod. */
export const MIN_GO_VERSION = "1.19";

export interface ToolFinder {
  which(command: string): string | undefined;
  versionOf: VersionProbe;
}

export function checkNode(version: string, execPath: string): CheckResult {
  const base = {
    id: "node",
    label: "Node",
    required: true,
    version,
    found: version,
    path: execPath,
  };
  if (compareVersions(version, MIN_NODE_VERSION) >= 0) {
    return { ...base, status: "ok", detail: "runs the CLI, the Executa host and Node/TS plugins" };
  }
  return {
    ...base,
    status: "fail",
    detail: `Node ${version} is older than ${MIN_NODE_VERSION}: the CLI, the Executa host and SDK plugins need Node ${MIN_NODE_VERSION}+`,
  };
}

export async function checkNpm(tools: ToolFinder): Promise<CheckResult> {
  const base = { id: "npm", label: "npm", required: false };
  const found = tools.which("npm");
  const version = found === undefined ? undefined : await tools.versionOf(found, ["--version"]);
  if (found === undefined || version === undefined) {
    return {
      ...base,
      status: "warn",
      found: "missing",
      ...(found === undefined ? {} : { path: found }),
      detail:
        "the ts template cannot be installed or built (npm install, npm run build); plain Node plugins still run",
    };
  }
  return {
    ...base,
    status: "ok",
    found: version,
    version,
    path: found,
    detail: "installs and builds the ts template",
  };
}

export async function checkPython(tools: ToolFinder): Promise<CheckResult> {
  const base = { id: "python", label: "Python", required: false };
  const name = ["python3", "python"].find((n) => tools.which(n) !== undefined);
  const found = name === undefined ? undefined : tools.which(name);
  if (name === undefined || found === undefined) {
    return {
      ...base,
      status: "warn",
      found: "missing",
      detail: "Python plugins cannot run",
    };
  }
  const version = await tools.versionOf(found, ["--version"]);
  if (version === undefined) {
    return {
      ...base,
      status: "warn",
      found: "broken",
      path: found,
      detail: `${name} --version failed: Python plugins may not start`,
    };
  }
  const where = { found: version, version, path: found };
  if (compareVersions(version, MIN_PYTHON_VERSION) < 0) {
    return {
      ...base,
      ...where,
      status: "warn",
      detail: `Python ${version} is older than ${MIN_PYTHON_VERSION}: the python template and most plugins will not run`,
    };
  }
  return { ...base, ...where, status: "ok", detail: `runs Python plugins (${name})` };
}

export async function checkUv(tools: ToolFinder): Promise<CheckResult> {
  const base = { id: "uv", label: "uv", required: false };
  const found = tools.which("uv");
  const version = found === undefined ? undefined : await tools.versionOf(found, ["--version"]);
  if (found === undefined || version === undefined) {
    return {
      ...base,
      status: "warn",
      found: "missing",
      ...(found === undefined ? {} : { path: found }),
      detail:
        "Python plugins start with python3 directly (fine for stdlib plugins); dependencies in pyproject.toml are not installed",
    };
  }
  return {
    ...base,
    status: "ok",
    found: version,
    version,
    path: found,
    detail: "runs Python plugins with uv run (installs their dependencies)",
  };
}

export async function checkGo(tools: ToolFinder): Promise<CheckResult> {
  const base = { id: "go", label: "Go", required: false };
  const found = tools.which("go");
  const version = found === undefined ? undefined : await tools.versionOf(found, ["version"]);
  if (found === undefined || version === undefined) {
    return {
      ...base,
      status: "warn",
      found: "missing",
      ...(found === undefined ? {} : { path: found }),
      detail: "Go plugins cannot run (go run .) and the go template cannot be tested",
    };
  }
  const where = { found: version, version, path: found };
  if (compareVersions(version, MIN_GO_VERSION) < 0) {
    return {
      ...base,
      ...where,
      status: "warn",
      detail: `Go ${version} is older than ${MIN_GO_VERSION}: the go template and most Go plugins will not build`,
    };
  }
  return { ...base, ...where, status: "ok", detail: "runs Go plugins (go run .)" };
}

/** Makes a dev key and mints + verifies a token with it; resolves with the key type. */
export type DevKeyProbe = () => Promise<string>;

export async function checkDevKey(probe: DevKeyProbe): Promise<CheckResult> {
  const base = { id: "dev-key", label: "dev key", required: true };
  try {
    const kind = await probe();
    return {
      ...base,
      status: "ok",
      found: kind,
      detail: "executa dev mints per-invoke tokens with an in-memory key",
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      status: "fail",
      found: "broken",
      detail: `cannot make a dev key (${reason.split("\n")[0] ?? ""}): executa dev cannot mint per-invoke tokens`,
    };
  }
}

/**
 * The Nexus our real modes will talk to (R173: `--matrix-nexus-root` / `$ANNA_NEXUS_ROOT`).
 * Optional: every offline mode works without it.
 */
export async function checkNexus(root: string | undefined): Promise<CheckResult> {
  const base = { id: "nexus", label: "Nexus", required: false };
  const disables = "real modes (--storage real, --app-slug) need a Nexus; offline modes work";
  if (root === undefined || root === "") {
    return {
      ...base,
      status: "warn",
      found: "not set",
      detail: `no --matrix-nexus-root or ANNA_NEXUS_ROOT: ${disables}`,
    };
  }
  const isDir = await stat(root).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    return {
      ...base,
      status: "warn",
      found: "missing",
      path: root,
      detail: `${root} is not a folder: ${disables}`,
    };
  }
  return { ...base, status: "ok", found: "found", path: root, detail: "checkout for real modes" };
}
