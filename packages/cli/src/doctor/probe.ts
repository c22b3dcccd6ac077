// Finding a tool on PATH and asking its version, with the environment doctor was given (tests
// inject a PATH without python3, uv or go).
import { execFile } from "node:child_process";

/** A tool that does not print its version within this long counts as broken. */
export const VERSION_PROBE_TIMEOUT_MS = 5_000;

/** `<exe> <args>` → the first dotted version number in its output, or undefined. */
export type VersionProbe = (
  executable: string,
  args: readonly string[],
) => Promise<string | undefined>;

export function createVersionProbe(env: NodeJS.ProcessEnv): VersionProbe {
  // Go ≥ 1.21 would download the toolchain a go.mod in the current folder asks for: doctor
  // reports the Go that is installed, offline.
  const probeEnv = { ...env, GOTOOLCHAIN: "local" };
  return (executable, args) =>
    new Promise((resolve) => {
      execFile(
        executable,
        [...args],
        { env: probeEnv, timeout: VERSION_PROBE_TIMEOUT_MS, windowsHide: true },
        (error, stdout, stderr) => {
          if (error) {
            resolve(undefined);
            return;
          }
          resolve(parseVersion(`${stdout} ${stderr}`));
        },
      );
    });
}

/**
 * "Python 3.11.7", "uv 0.4.18 (…)", "go version go1.19.8 linux/amd64", "10.8.2" → the version.
 * Old Pythons print to stderr, hence both streams.
 */
export function parseVersion(output: string): string | undefined {
  return /(?:^|[\s(]|go|v)(\d+\.\d+(?:\.\d+)?)/.exec(output)?.[1];
}

/** Negative when a < b, 0 when equal (missing parts count as 0), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(".").map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
