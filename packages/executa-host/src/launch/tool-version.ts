// Installed toolchain versions, to tell when a plugin asks for a newer Python or Go than the
// machine has (real-world-plugins.md "More traps": such plugins still run).
import { execFile } from "node:child_process";
import * as path from "node:path";

/** Version number ("3.11.7", "1.19.8") of the executable, or undefined when it cannot be told. */
export type VersionProbe = (executable: string) => Promise<string | undefined>;

const VERSION_PROBE_TIMEOUT_MS = 5_000;
// One probe per executable per process: detection runs for every plugin folder.
const probes = new Map<string, Promise<string | undefined>>();

/** Runs `go version` for Go and `<exe> --version` for anything else (python3 prints "Python 3.x"). */
export const probeVersion: VersionProbe = (executable) => {
  let probe = probes.get(executable);
  if (probe === undefined) {
    probe = runProbe(executable);
    probes.set(executable, probe);
  }
  return probe;
};

function runProbe(executable: string): Promise<string | undefined> {
  const isGo = /^go(\.exe)?$/i.test(path.basename(executable));
  return new Promise((resolve) => {
    execFile(
      executable,
      [isGo ? "version" : "--version"],
      { timeout: VERSION_PROBE_TIMEOUT_MS, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          resolve(undefined);
          return;
        }
        // "go version go1.19.8 linux/amd64", "Python 3.11.7" (old Pythons print to stderr), "v20.1.0".
        const match = /(?:^|\s|go|v)(\d+\.\d+(?:\.\d+)?)/.exec(`${stdout} ${stderr}`);
        resolve(match?.[1]);
      },
    );
  });
}

export function parseVersion(version: string): number[] {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

/** Negative when a < b, 0 when equal (missing parts count as 0), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
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
      const wanted = parseVersion(version);
      const have = parseVersion(installed).slice(0, wildcard ? wanted.length : undefined);
      if (wildcard ? compareVersions(have.join("."), version) !== 0 : cmp !== 0) return false;
    }
  }
  return true;
}
