// The command line that runs one command in the sandbox: resource limits (prlimit), the drop to
// an unprivileged uid when the server is root (setpriv), then bubblewrap with its own PID, IPC
// and UTS namespaces, a read-only system, private home and tmp, and only the folders named.
// Every step execs the next, so the pid the host holds is bubblewrap's and its process group
// is the sandbox's.

import type { SandboxBinaries } from "./bwrap-probe.js";
import type { SandboxLimits } from "./sandbox-options.js";

/** Where the private folders appear inside. */
export const SANDBOX_HOME = "/home/sandbox";
export const SANDBOX_TMP = "/tmp";
export const SANDBOX_WORKSPACE = "/workspace";

/** What a program needs from the system to run: binaries, libraries, name resolution, TLS roots. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;
const SYSTEM_ETC = [
  "/etc/alternatives",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/gai.conf",
  "/etc/group",
  "/etc/host.conf",
  "/etc/hosts",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/mime.types",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/protocols",
  "/etc/resolv.conf",
  "/etc/services",
  "/etc/ssl",
] as const;

/** Folders outside SYSTEM_DIRS an executable may live in once bound; for the resolution check. */
export const SYSTEM_READ_ONLY: readonly string[] = SYSTEM_DIRS;

export interface SandboxMounts {
  /** Host folder bound read-write at SANDBOX_HOME. */
  home: string;
  /** Host folder bound read-write at SANDBOX_TMP. */
  tmp: string;
  /** Also bind `tmp` at its own host path (for `__file_transport` pointers the host resolves). */
  tmpAlsoAtHostPath?: boolean;
  /** Host folder bound read-write at SANDBOX_WORKSPACE, when the sandbox gets one. */
  workspace?: string;
  /** Host folders bound read-only at the same path (the plugin's install dir, toolchains). */
  readOnly: readonly string[];
}

export interface SandboxArgvOptions {
  binaries: SandboxBinaries;
  limits: SandboxLimits;
  mounts: SandboxMounts;
  network: boolean;
  /** Set when the server is root: the sandbox runs as this uid/gid. */
  runAs?: { uid: number; gid: number };
  /** The working directory inside. */
  cwd: string;
  /** argv[0] must be absolute (a bwrap that cannot exec it fails as "exit 1", not ENOENT). */
  command: readonly string[];
}

export function sandboxArgv(options: SandboxArgvOptions): string[] {
  const { binaries, limits, mounts } = options;
  const argv: string[] = [
    binaries.prlimit,
    `--nproc=${limits.maxProcesses}`,
    `--as=${limits.addressSpaceBytes}`,
    `--cpu=${limits.cpuSeconds}`,
    `--nofile=${limits.openFiles}`,
    "--",
  ];
  if (options.runAs !== undefined) {
    if (binaries.setpriv === undefined) {
      throw new Error("the sandbox must drop root but setpriv was not found (util-linux)");
    }
    argv.push(
      binaries.setpriv,
      `--reuid=${options.runAs.uid}`,
      `--regid=${options.runAs.gid}`,
      "--clear-groups",
      "--",
    );
  }
  // `env --ignore-signal=TERM`: bubblewrap (the group leader the host signals) survives the
  // SIGTERM step of a shutdown so the plugin gets its grace period; the inner `env` restores it.
  argv.push(binaries.env, "--ignore-signal=TERM", binaries.bwrap);
  argv.push("--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts");
  argv.push("--unshare-cgroup-try", "--cap-drop", "ALL", "--hostname", "sandbox");
  if (!options.network) argv.push("--unshare-net");
  for (const dir of SYSTEM_DIRS) argv.push("--ro-bind-try", dir, dir);
  for (const entry of SYSTEM_ETC) argv.push("--ro-bind-try", entry, entry);
  argv.push("--proc", "/proc", "--dev", "/dev");
  argv.push("--bind", mounts.home, SANDBOX_HOME, "--bind", mounts.tmp, SANDBOX_TMP);
  if (mounts.tmpAlsoAtHostPath === true) argv.push("--bind", mounts.tmp, mounts.tmp);
  if (mounts.workspace !== undefined) argv.push("--bind", mounts.workspace, SANDBOX_WORKSPACE);
  for (const dir of mounts.readOnly) argv.push("--ro-bind", dir, dir);
  argv.push(
    "--chdir",
    options.cwd,
    "--",
    binaries.env,
    "--default-signal=TERM",
    ...options.command,
  );
  return argv;
}
