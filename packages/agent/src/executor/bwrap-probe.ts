// Whether the bubblewrap sandbox can run here, asked once per server process: it runs the very
// wrapper plugins get (limits, uid change, namespaces) around `true`. Each way it can fail
// (not Linux, a missing binary, no user namespaces) gives a reason that names the fix.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createWhich } from "@anna-ai/executa-host";

export interface SandboxBinaries {
  bwrap: string;
  env: string;
  prlimit: string;
  /** Needed only when the server runs as root (to drop to `runAs`). */
  setpriv?: string;
}

export type BwrapProbe =
  { usable: true; binaries: SandboxBinaries } | { usable: false; reason: string };

const PROBE_TIMEOUT_MS = 5_000;
let cached: BwrapProbe | undefined;

/** The binaries, or the first missing one with the package that provides it. */
export function findSandboxBinaries(
  env: NodeJS.ProcessEnv = process.env,
): SandboxBinaries | { missing: string } {
  const which = createWhich({ env: { PATH: env.PATH ?? "/usr/bin:/bin" } });
  const bwrap = which("bwrap");
  if (bwrap === undefined)
    return { missing: "bwrap is not on PATH (Debian/Ubuntu: apt install bubblewrap)" };
  const envBin = which("env");
  if (envBin === undefined) return { missing: "env is not on PATH (coreutils)" };
  const prlimit = which("prlimit");
  if (prlimit === undefined)
    return { missing: "prlimit is not on PATH (Debian/Ubuntu: util-linux)" };
  const setpriv = which("setpriv");
  if (isRoot() && setpriv === undefined) {
    return {
      missing: "setpriv is not on PATH and the server runs as root (Debian/Ubuntu: util-linux)",
    };
  }
  return { bwrap, env: envBin, prlimit, ...(setpriv === undefined ? {} : { setpriv }) };
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * `run` builds the argv for a command in a sandbox whose home and tmp are the given folders; the
 * probe passes the real builder so what it proves is what plugins get.
 */
export function probeBwrap(
  run: (binaries: SandboxBinaries, dirs: { home: string; tmp: string }) => string[],
  options: { fresh?: boolean } = {},
): BwrapProbe {
  if (cached !== undefined && options.fresh !== true) return cached;
  cached = runProbe(run);
  return cached;
}

function runProbe(
  run: (binaries: SandboxBinaries, dirs: { home: string; tmp: string }) => string[],
): BwrapProbe {
  if (process.platform !== "linux") {
    return {
      usable: false,
      reason: `bubblewrap needs Linux namespaces (this is ${process.platform})`,
    };
  }
  const binaries = findSandboxBinaries();
  if ("missing" in binaries) return { usable: false, reason: binaries.missing };
  const scratch = mkdtempSync(path.join(tmpdir(), "anna-sandbox-probe-"));
  try {
    // The sandbox's uid must be able to reach its bind sources.
    chmodSync(scratch, 0o755);
    const [file, ...args] = run(binaries, { home: scratch, tmp: scratch });
    const result = spawnSync(file!, args, {
      cwd: "/",
      env: { PATH: "/usr/bin:/bin" },
      encoding: "utf8",
      timeout: PROBE_TIMEOUT_MS,
      stdio: ["ignore", "ignore", "pipe"],
    });
    if (result.status === 0) return { usable: true, binaries };
    const said = (result.stderr ?? "").trim().split("\n")[0] ?? "";
    const why = result.error?.message ?? (said || `exit code ${String(result.status)}`);
    return {
      usable: false,
      reason:
        `bwrap cannot create its namespaces here: ${why} ` +
        "(the kernel must allow unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1, " +
        "user.max_user_namespaces > 0; in a container, run it with --security-opt seccomp=unconfined or as privileged)",
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
