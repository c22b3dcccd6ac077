// What `anna-app doctor` checks and what each missing piece disables. Required for OUR
// toolchain: Node ≥ 20.19 (the CLI, the host and SDK plugins run on it) and a working dev key
// (per-invoke tokens, H15). Everything else is optional and disables one specific thing
// (D-cli-doctor-1).
import { stat } from "node:fs/promises";
import type { SupervisorMode, SupervisorStatus } from "@anna-ai/executa-host";
import type { CheckResult } from "./check.js";
import {
  TOOLCHAINS,
  compareVersions,
  toolchainProblem,
  type ToolchainName,
  type VersionProbe,
} from "@anna-ai/executa-host";

/** package.json `engines.node` of every package here. */
export const MIN_NODE_VERSION = TOOLCHAINS.node.minimum;
/** `requires-python` of the python template; plugin launches check the same minimum. */
export const MIN_PYTHON_VERSION = TOOLCHAINS.python3.minimum;
/** The `go` line of the go template's go.mod; plugin launches check the same minimum. */
export const MIN_GO_VERSION = TOOLCHAINS.go.minimum;

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

/** One optional tool: how to ask its version, the minimum it needs and what each outcome says. */
interface ToolCheckSpec {
  id: string;
  label: string;
  versionArgs: readonly string[];
  /** Said when the tool is not on PATH (or, without `broken`, when its version probe fails). */
  missing: string;
  /** Said when the tool is on PATH but the version probe fails; defaults to `missing`. */
  broken?: string;
  /** Said when the tool is found and new enough. */
  ok: string;
  minimum?: { version: string; tooOld: (version: string) => string };
  /**
   * The launcher in the shared toolchain table: missing and too old are then said the way a
   * plugin launch says them (tool, version wanted, version found), after this check's consequence.
   */
  toolchain?: { tool: ToolchainName; needs: string };
}

/** Probes the tool at `found` for its version and compares it to the spec's minimum. */
async function checkTool(
  tools: ToolFinder,
  found: string | undefined,
  spec: ToolCheckSpec,
): Promise<CheckResult> {
  const base = { id: spec.id, label: spec.label, required: false };
  const version = found === undefined ? undefined : await tools.versionOf(found, spec.versionArgs);
  if (found === undefined || version === undefined) {
    if (found !== undefined && spec.broken !== undefined) {
      return { ...base, status: "warn", found: "broken", path: found, detail: spec.broken };
    }
    return {
      ...base,
      status: "warn",
      found: "missing",
      ...(found === undefined ? {} : { path: found }),
      detail: withToolchainLine(spec, spec.missing, undefined, found),
    };
  }
  if (spec.minimum === undefined) {
    return { ...base, status: "ok", found: version, version, path: found, detail: spec.ok };
  }
  const where = { found: version, version, path: found };
  if (compareVersions(version, spec.minimum.version) < 0) {
    return {
      ...base,
      ...where,
      status: "warn",
      detail: withToolchainLine(spec, spec.minimum.tooOld(version), version, found),
    };
  }
  return { ...base, ...where, status: "ok", detail: spec.ok };
}

function withToolchainLine(
  spec: ToolCheckSpec,
  consequence: string,
  version: string | undefined,
  path: string | undefined,
): string {
  if (spec.toolchain === undefined || (path !== undefined && version === undefined)) {
    return consequence;
  }
  const problem = toolchainProblem(
    {
      tool: spec.toolchain.tool,
      wanted: spec.minimum?.version,
      wantedBy: "the templates and SDKs",
      found: version,
      path,
    },
    spec.toolchain.needs,
  );
  return problem === undefined ? consequence : `${consequence}; ${problem}`;
}

export async function checkNpm(tools: ToolFinder): Promise<CheckResult> {
  return checkTool(tools, tools.which("npm"), {
    id: "npm",
    label: "npm",
    versionArgs: ["--version"],
    missing:
      "the ts template cannot be installed or built (npm install, npm run build); plain Node plugins still run",
    ok: "installs and builds the ts template",
  });
}

export async function checkPython(tools: ToolFinder): Promise<CheckResult> {
  const name = ["python3", "python"].find((n) => tools.which(n) !== undefined);
  return checkTool(tools, name === undefined ? undefined : tools.which(name), {
    id: "python",
    label: "Python",
    versionArgs: ["--version"],
    missing: "Python plugins cannot run",
    broken: `${name ?? "python"} --version failed: Python plugins may not start`,
    toolchain: { tool: "python3", needs: "they need" },
    ok: `runs Python plugins (${name ?? "python"})`,
    minimum: {
      version: MIN_PYTHON_VERSION,
      tooOld: (version) =>
        `Python ${version} is older than ${MIN_PYTHON_VERSION}: the python template and most plugins will not run`,
    },
  });
}

export async function checkUv(tools: ToolFinder): Promise<CheckResult> {
  return checkTool(tools, tools.which("uv"), {
    id: "uv",
    label: "uv",
    versionArgs: ["--version"],
    missing:
      "Python plugins start with python3 directly (fine for stdlib plugins); dependencies in pyproject.toml are not installed",
    ok: "runs Python plugins with uv run (installs their dependencies)",
  });
}

export async function checkGo(tools: ToolFinder): Promise<CheckResult> {
  return checkTool(tools, tools.which("go"), {
    id: "go",
    label: "Go",
    versionArgs: ["version"],
    missing: "Go plugins cannot run (go run .) and the go template cannot be tested",
    toolchain: { tool: "go", needs: "they need" },
    ok: "runs Go plugins (go run .)",
    minimum: {
      version: MIN_GO_VERSION,
      tooOld: (version) =>
        `Go ${version} is older than ${MIN_GO_VERSION}: the go template and most Go plugins will not build`,
    },
  });
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
 * A Nexus source checkout (R173: `--matrix-nexus-root` / `$ANNA_NEXUS_ROOT`), for running the
 * matrix against a server built from source. Optional: the real modes talk to a running server
 * through the saved account (the account check), not to a checkout.
 */
export async function checkNexus(root: string | undefined): Promise<CheckResult> {
  const base = { id: "nexus", label: "Nexus", required: false };
  const disables =
    "only needed to test against a Nexus built from source; --storage real and --storage aps use the saved account";
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
  return { ...base, status: "ok", found: "found", path: root, detail: "Nexus checkout" };
}

/**
 * What keeps a plugin's helpers from outliving the host. Optional: without it plugins still run,
 * and everything they leave in their process group is still killed; only a helper that left the
 * group (setsid) survives a host that was killed with SIGKILL.
 */
export function checkSupervisor(mode: SupervisorMode, status: SupervisorStatus): CheckResult {
  const base = { id: "supervisor", label: "supervisor", required: false };
  if (status.kind === "bwrap") {
    return {
      ...base,
      status: "ok",
      found: "bwrap",
      path: status.bwrap,
      detail:
        "plugins run in a PID namespace of their own: nothing they start outlives the host, even one killed with SIGKILL",
    };
  }
  const without =
    "plugins run in a process group only: a helper that leaves it (setsid) survives a host killed with SIGKILL";
  return {
    ...base,
    status: "warn",
    found: mode === "none" ? "off" : "missing",
    detail: `${status.reason}: ${without}`,
  };
}
