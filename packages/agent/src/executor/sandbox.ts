// The sandbox as the pool and the exec_* tools use it: the operator's choice checked once (a
// bwrap that cannot run here, or "none" for untrusted code without the explicit opt-out, is a
// refusal whose message says how to fix or opt out), then launchers per (user, tool).

import { existsSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { resolveExecutable, type PluginLauncher } from "@anna-ai/executa-host";
import { isRoot, probeBwrap, type BwrapProbe, type SandboxBinaries } from "./bwrap-probe.js";
import { checkRoot, execDirs, pluginDirs, unreachableBy, userWorkspace } from "./sandbox-dirs.js";
import type { SharedWorkspaces } from "../platform-tools/fs/workspace-access.js";
import {
  SANDBOX_HOME,
  SANDBOX_TMP,
  SANDBOX_WORKSPACE,
  SYSTEM_READ_ONLY,
  sandboxArgv,
  type SandboxMounts,
} from "./sandbox-argv.js";
import {
  DEFAULT_RUN_AS,
  SANDBOX_ALLOW_UNSANDBOXED_ENV,
  SANDBOX_ENV,
  sandboxLimits,
  type SandboxLimits,
  type SandboxOptions,
} from "./sandbox-options.js";

/** The PATH inside: the system's, then the read-only toolchains' `bin` folders. */
const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

export class SandboxRefusedError extends Error {
  readonly code = "SANDBOX_REFUSED";
  constructor(message: string) {
    super(message);
    this.name = "SandboxRefusedError";
  }
}

const OPT_OUT_HINT =
  `to run it without a sandbox anyway, the operator sets sandbox { mode: "none", allowUnsandboxed: true } ` +
  `(${SANDBOX_ENV}=none ${SANDBOX_ALLOW_UNSANDBOXED_ENV}=1)`;

/** One command to spawn: under bubblewrap, or as is when the operator opted out. */
export interface SandboxedCommand {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** bubblewrap reports death by signal N as exit 128 + N. */
  signalsAsExitCodes: boolean;
}

export class Sandbox {
  readonly options: SandboxOptions;
  readonly root: string;
  readonly limits: SandboxLimits;
  private readonly probeRunner: () => BwrapProbe;
  private probed: BwrapProbe | undefined;

  constructor(options: SandboxOptions, probe?: () => BwrapProbe) {
    this.options = options;
    this.root = checkRoot(options.root);
    this.limits = sandboxLimits(options);
    this.probeRunner =
      probe ??
      (() =>
        probeBwrap((binaries, dirs) =>
          this.argv(binaries, { ...dirs, readOnly: [] }, "/", ["/usr/bin/env", "true"]),
        ));
  }

  /** The uid the sandbox runs as: `runAs` (default nobody) when root, else the server's own. */
  get owner(): { uid: number; gid: number } | undefined {
    return isRoot() ? (this.options.runAs ?? DEFAULT_RUN_AS) : undefined;
  }

  probe(): BwrapProbe {
    this.probed ??= this.probeRunner();
    return this.probed;
  }

  /** One line for the server's start log: what plugins run under, or why they are refused. */
  startupNotice(): string {
    if (this.options.mode === "none") {
      return this.options.allowUnsandboxed === true
        ? "sandbox: OFF (operator opt-out): every plugin and exec_* command runs unsandboxed with the server's rights"
        : "sandbox: off; only plugins marked trusted run (unsandboxed); untrusted plugins and exec_* are refused";
    }
    const probe = this.probe();
    if (!probe.usable)
      return `sandbox: bwrap unusable, plugins are refused: ${probe.reason}; ${OPT_OUT_HINT}`;
    const owner = this.owner;
    return (
      `sandbox: bwrap (PID namespace, read-only system, private home/tmp per user and tool under ${this.root}` +
      `, network ${this.options.network === false ? "off" : "on"}` +
      `${owner === undefined ? "" : `, uid ${owner.uid}`}, at most ${this.limits.maxProcesses} processes, ` +
      `${Math.round(this.limits.addressSpaceBytes / 1024 ** 2)} MiB address space, ${this.limits.cpuSeconds} s CPU)`
    );
  }

  /** Throws SandboxRefusedError when `what` may not run here; says how to fix or opt out. */
  assertRunnable(what: string, trusted: boolean): void {
    if (this.options.mode === "none") {
      if (trusted || this.options.allowUnsandboxed === true) return;
      throw new SandboxRefusedError(
        `refusing to run ${what} without a sandbox: the sandbox is off (mode "none") and it is not a trusted plugin; ` +
          `use mode "bwrap", or ${OPT_OUT_HINT}`,
      );
    }
    const probe = this.probe();
    if (!probe.usable) {
      throw new SandboxRefusedError(
        `refusing to run ${what}: the bwrap sandbox cannot run here (${probe.reason}); ${OPT_OUT_HINT}`,
      );
    }
  }

  /** The launcher for one (user, tool) plugin; `pluginDir` (and the cwd) are bound read-only. */
  pluginLauncher(userId: string, toolId: string, pluginDir: string): PluginLauncher | undefined {
    if (this.options.mode === "none") return undefined;
    return (request) => {
      const dirs = pluginDirs(this.root, userId, toolId, this.owner);
      const readOnly = unique([pluginDir, request.cwd, ...(this.options.readOnlyPaths ?? [])]);
      // TMPDIR is the private tmp's host path (bound there as well as at /tmp): the SDKs write
      // large frames to it as `__file_transport` files (T2), which the host then finds by name.
      const env = sandboxEnv(request.env, {
        ANNA_WORKSPACE_DIR: `${SANDBOX_HOME}/anna-workspace`,
        TMPDIR: dirs.tmp,
      });
      const owner = this.owner;
      return {
        ...this.wrap(request.command, request.cwd, env, {
          home: dirs.home,
          tmp: dirs.tmp,
          tmpAlsoAtHostPath: true,
          readOnly,
        }),
        fileTransport: { dir: dirs.tmp, ...(owner === undefined ? {} : { ownerUid: owner.uid }) },
      };
    };
  }

  /**
   * The users' workspaces as fs_* must use them beside exec_*: the folder commands see at
   * /workspace, and the uid that must own what fs_* create there.
   */
  sharedWorkspaces(): SharedWorkspaces {
    return { dirOf: (userId) => userWorkspace(this.root, userId, this.owner), owner: this.owner };
  }

  /** A shell command for exec_*: the user's workspace read-write at /workspace, its cwd there. */
  execCommand(userId: string, script: string, cwdInside: string): SandboxedCommand {
    const dirs = execDirs(this.root, userId, this.owner);
    const shell = ["/bin/sh", "-c", script];
    const env = sandboxEnv({}, { ANNA_WORKSPACE_DIR: SANDBOX_WORKSPACE });
    if (this.options.mode === "none") {
      const cwd = path.join(dirs.workspace, path.relative(SANDBOX_WORKSPACE, cwdInside));
      return {
        command: shell,
        cwd,
        env: { ...env, HOME: dirs.home, TMPDIR: dirs.tmp, ANNA_WORKSPACE_DIR: dirs.workspace },
        signalsAsExitCodes: false,
      };
    }
    return this.wrap(shell, cwdInside, env, {
      home: dirs.home,
      tmp: dirs.tmp,
      workspace: dirs.workspace,
      readOnly: unique(this.options.readOnlyPaths ?? []),
    });
  }

  private wrap(
    command: readonly string[],
    cwd: string,
    env: Record<string, string>,
    mounts: SandboxMounts,
  ): SandboxedCommand {
    const probe = this.probe();
    if (!probe.usable)
      throw new SandboxRefusedError(`the bwrap sandbox cannot run here: ${probe.reason}`);
    for (const dir of [mounts.home, mounts.tmp, ...mounts.readOnly]) {
      const why = unreachableBy(dir, this.owner);
      if (why !== undefined)
        throw new SandboxRefusedError(`the sandbox cannot bind ${dir}: ${why}`);
    }
    // Only PATH entries the sandbox can see: a spec detected on the host may put the server's
    // own toolchain folders (a pyenv shim under /root) in front of /usr/bin.
    const visible = [...SYSTEM_READ_ONLY, ...mounts.readOnly];
    const insideEnv = { ...env, PATH: visiblePath(env.PATH ?? SANDBOX_PATH, visible) };
    const executable = this.resolveInside(command[0]!, cwd, insideEnv, mounts.readOnly);
    return {
      command: this.argv(probe.binaries, mounts, cwd, [executable, ...command.slice(1)]),
      cwd: "/",
      env: insideEnv,
      signalsAsExitCodes: true,
    };
  }

  private argv(
    binaries: SandboxBinaries,
    mounts: SandboxMounts,
    cwd: string,
    command: readonly string[],
  ): string[] {
    const owner = this.owner;
    return sandboxArgv({
      binaries,
      limits: this.limits,
      mounts,
      network: this.options.network !== false,
      ...(owner === undefined ? {} : { runAs: owner }),
      cwd,
      command,
    });
  }

  /**
   * The absolute path of argv[0], which must be visible inside: under the read-only system or a
   * bound folder. A launcher elsewhere (a pyenv shim under /root) would fail inside as a bare
   * "exit 1"; this says which folder to add instead.
   */
  private resolveInside(
    file: string,
    cwd: string,
    env: Record<string, string>,
    readOnly: readonly string[],
  ): string {
    const found = resolveExecutable(file, cwd, env);
    if (found === undefined) {
      throw new SandboxRefusedError(
        `cannot start "${file}" in the sandbox: it is not found on the sandbox PATH (${env.PATH ?? ""}) nor relative to ${cwd}`,
      );
    }
    const real = realOrSelf(found);
    const visible = [...SYSTEM_READ_ONLY, ...readOnly];
    // A bound folder may be a symlink (an install's `current` → `v1.2.0`): bwrap binds its target.
    if (!visible.some((dir) => isInside(found, dir) || isInside(real, realOrSelf(dir)))) {
      throw new SandboxRefusedError(
        `cannot start "${file}" in the sandbox: it resolves to ${real}, outside the folders the sandbox sees ` +
          `(${visible.join(", ")}); add its toolchain folder to sandbox.readOnlyPaths`,
      );
    }
    return found;
  }
}

function realOrSelf(file: string): string {
  return existsSync(file) ? realpathSync(file) : file;
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function visiblePath(value: string, visible: readonly string[]): string {
  const kept = value
    .split(":")
    .filter((dir) => dir !== "" && visible.some((root) => isInside(path.resolve(dir), root)));
  return kept.length > 0 ? kept.join(":") : SANDBOX_PATH;
}

function unique(dirs: readonly string[]): string[] {
  return [...new Set(dirs.map((dir) => path.resolve(dir)))];
}

/**
 * The environment inside: what the caller gave (the pool passes no server secrets), with HOME,
 * TMPDIR and PATH pointing at the sandbox's own.
 */
function sandboxEnv(
  base: Readonly<Record<string, string | undefined>>,
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  return {
    ...env,
    PATH: env.PATH ?? SANDBOX_PATH,
    HOME: SANDBOX_HOME,
    TMPDIR: SANDBOX_TMP,
    ...extra,
  };
}

export { SANDBOX_HOME, SANDBOX_TMP, SANDBOX_WORKSPACE };
