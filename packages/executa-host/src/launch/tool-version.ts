// Installed toolchain versions: the one probe `doctor` and plugin detection share, and the one
// way a missing or too old launcher is told to the user (tool, version wanted, version found).
import { execFile } from "node:child_process";
import * as path from "node:path";

/**
 * Version number ("3.11.7", "1.19.8") of the executable, or undefined when it cannot be told.
 * `args` default to `version` for Go and `--version` for anything else.
 */
export type VersionProbe = (
  executable: string,
  args?: readonly string[],
) => Promise<string | undefined>;

/** A tool that does not print its version within this long counts as broken. */
export const VERSION_PROBE_TIMEOUT_MS = 5_000;

/** The launchers plugins need, with the oldest version our templates and SDKs run on. */
export const TOOLCHAINS = Object.freeze({
  go: { label: "Go", minimum: "1.19", install: "https://go.dev/dl/" },
  python3: { label: "Python", minimum: "3.8", install: "https://www.python.org/downloads/" },
  uv: { label: "uv", minimum: undefined, install: "https://docs.astral.sh/uv/" },
  node: { label: "Node", minimum: "20.19.0", install: "https://nodejs.org/" },
} as const);

export type ToolchainName = keyof typeof TOOLCHAINS;

/** What detection found for the launcher a plugin needs. */
export interface ToolchainCheck {
  tool: ToolchainName;
  /** The oldest version that works, e.g. "1.22" (go.mod) or "3.12" (requires-python). */
  wanted: string | undefined;
  /** Who asks for `wanted`: "go.mod", "pyproject.toml requires-python", "Anna's templates". */
  wantedBy: string;
  /** The installed version, undefined when the tool is not on PATH or did not say. */
  found: string | undefined;
  /** Where the tool is, undefined when it is not on PATH. */
  path: string | undefined;
}

/**
 * The one line for a launcher that is missing or older than wanted, undefined when it is fine:
 * "go is not on PATH: this plugin needs Go 1.19 or newer, found none; install it (https://go.dev/dl/)".
 */
export function toolchainProblem(
  check: ToolchainCheck,
  needs = "this plugin needs",
): string | undefined {
  const { label, install } = TOOLCHAINS[check.tool];
  const need =
    check.wanted === undefined ? label : `${label} ${check.wanted} or newer (${check.wantedBy})`;
  if (check.path === undefined) {
    return `${check.tool} is not on PATH: ${needs} ${need}, found none; install it (${install}) or put it on PATH`;
  }
  if (check.wanted === undefined || check.found === undefined) return undefined;
  if (compareVersions(check.found, check.wanted) >= 0) return undefined;
  return `${check.tool} is too old: ${needs} ${need}, found ${check.found} (${check.path}); install ${label} ${check.wanted}+ (${install})`;
}

/** Probes run with `env`; Go ≥1.21 would otherwise download the toolchain a go.mod asks for. */
export function createVersionProbe(env: NodeJS.ProcessEnv = process.env): VersionProbe {
  // One probe per executable and arguments: detection runs for every plugin folder.
  const probes = new Map<string, Promise<string | undefined>>();
  const probeEnv = { ...env, GOTOOLCHAIN: "local" };
  return (executable, args) => {
    const argv =
      args ?? (/^go(\.exe)?$/i.test(path.basename(executable)) ? ["version"] : ["--version"]);
    const key = JSON.stringify([executable, argv]);
    let probe = probes.get(key);
    if (probe === undefined) {
      probe = new Promise((resolve) => {
        execFile(
          executable,
          [...argv],
          { env: probeEnv, timeout: VERSION_PROBE_TIMEOUT_MS, windowsHide: true },
          (error, stdout, stderr) =>
            resolve(error ? undefined : parseVersion(`${stdout} ${stderr}`)),
        );
      });
      probes.set(key, probe);
    }
    return probe;
  };
}

/** The probe over this process's environment. */
export const probeVersion: VersionProbe = createVersionProbe();

/**
 * "Python 3.11.7", "uv 0.4.18 (…)", "go version go1.19.8 linux/amd64", "v20.1.0" → the version.
 * Old Pythons print to stderr, hence both streams.
 */
export function parseVersion(output: string): string | undefined {
  return /(?:^|[\s(]|go|v)(\d+\.\d+(?:\.\d+)?)/.exec(output)?.[1];
}

function versionParts(version: string): number[] {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

/** Negative when a < b, 0 when equal (missing parts count as 0), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The lowest version a PEP 440 specifier such as ">=3.10,<4" or "~=3.11" allows, if it says. */
export function requiresPythonMinimum(specifier: string): string | undefined {
  let minimum: string | undefined;
  for (const clause of specifier.split(",")) {
    const match = /^\s*(===|>=|==|~=|>)\s*v?(\d+(?:\.\d+)*)/.exec(clause);
    const version = match?.[2];
    if (version !== undefined && (minimum === undefined || compareVersions(version, minimum) > 0)) {
      minimum = version;
    }
  }
  return minimum;
}

/**
 * Whether `installed` meets the lower bounds of a PEP 440 specifier such as ">=3.10,<4" or
 * "~=3.11". Upper bounds and exclusions are ignored: only "too old" matters for the warning.
 */
export function meetsRequiresPython(installed: string, specifier: string): boolean {
  for (const clause of specifier.split(",")) {
    const match = /^\s*(===|>=|==|~=|>)\s*v?(\d+(?:\.\d+)*)(\.\*)?\s*$/.exec(clause);
    if (match === null) continue;
    const [, op, version = "", wildcard] = match;
    const cmp = compareVersions(installed, version);
    if (op === ">" && cmp <= 0) return false;
    if ((op === ">=" || op === "~=") && cmp < 0) return false;
    if (op === "==" || op === "===") {
      const wanted = versionParts(version);
      const have = versionParts(installed).slice(0, wildcard ? wanted.length : undefined);
      if (wildcard ? compareVersions(have.join("."), version) !== 0 : cmp !== 0) return false;
    }
  }
  return true;
}
