// Starting a plugin in its own process group, so one signal reaches everything it started
// (H4: "signalled to the whole process group"), under the supervisor where there is one (so a
// host killed with SIGKILL still leaves nothing behind), and a last-resort sweep when the host
// exits.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { PluginLauncher, WrappedLaunch } from "./launcher.js";
import {
  resolveExecutable,
  resolveSupervisorMode,
  supervisedExit,
  supervisorFor,
  wrapCommand,
  type SupervisorMode,
} from "./supervisor.js";

export interface SpawnRequest {
  command: readonly string[];
  cwd: string;
  /** The complete environment (the caller merges the user's env with the spec's extras). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default: ANNA_EXECUTA_SUPERVISOR, else `auto`. */
  supervisor?: SupervisorMode;
  /** Replaces the built-in supervisor: the caller's wrapper decides what actually runs. */
  launcher?: PluginLauncher;
}

const liveGroups = new Set<number>();
/** Children started under bubblewrap: their exit status needs translating (supervisedExit). */
const supervisedChildren = new WeakSet<ChildProcessWithoutNullStreams>();
/** What a launcher said about the children it wrapped (their file-transport folder). */
const launchedChildren = new WeakMap<ChildProcessWithoutNullStreams, WrappedLaunch>();
let exitHookInstalled = false;

/**
 * `process.on("exit")` runs synchronously and cannot wait, so it SIGKILLs every group still alive.
 * Plugins also see stdin EOF when the host dies any other way (the pipe's write end dies with us).
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
    liveGroups.clear();
  });
}

/**
 * Spawn with piped stdio and `detached: true`: the child leads a new process group whose id is its
 * pid. Its stdin stays a pipe from us, which is what makes plugins exit when the host is killed;
 * under the supervisor the leader is bubblewrap, and its PID namespace dies with us. Spawn
 * failures (ENOENT, EACCES) surface as the child's `error` event, as with `spawn` itself.
 */
export function spawnPluginProcess(request: SpawnRequest): ChildProcessWithoutNullStreams {
  if (request.command[0] === undefined) {
    throw new Error("cannot spawn a plugin with an empty command");
  }
  installExitHook();
  const launched = request.launcher?.({
    command: request.command,
    cwd: request.cwd,
    env: request.env,
  });
  const wrapped = launched === undefined ? supervisedCommand(request) : undefined;
  const [file, ...args] = launched?.command ?? wrapped ?? request.command;
  const child = spawn(file!, args, {
    cwd: launched?.cwd ?? request.cwd,
    env: launched?.env ?? request.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  // Tracked until sweepGroup: after the leader exits, helpers it left may still be in the group.
  if (child.pid !== undefined) liveGroups.add(child.pid);
  if (wrapped !== undefined || launched?.signalsAsExitCodes === true) supervisedChildren.add(child);
  if (launched !== undefined) launchedChildren.set(child, launched);
  return child;
}

/**
 * The wrapped command, or undefined to spawn as is: no supervisor here, or a command or cwd that
 * does not exist, which must fail with the ENOENT/EACCES `spawn` gives (the launch errors name the
 * missing tool from it) rather than as bubblewrap's "exit code 1".
 */
function supervisedCommand(request: SpawnRequest): string[] | undefined {
  const status = supervisorFor(request.supervisor ?? resolveSupervisorMode(undefined));
  if (status.kind === "none") return undefined;
  const [file] = request.command;
  if (!isDirectory(request.cwd)) return undefined;
  if (resolveExecutable(file!, request.cwd, request.env) === undefined) return undefined;
  return wrapCommand(status, request.command, request.cwd);
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The plugin's own exit code or signal, whether or not it ran under the supervisor. */
export function pluginExitStatus(
  child: ChildProcessWithoutNullStreams,
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  return supervisedChildren.has(child) ? supervisedExit(code, signal) : { code, signal };
}

/** The file-transport folder a launcher gave this child, when it gave one. */
export function launchedFileTransport(
  child: ChildProcessWithoutNullStreams,
): WrappedLaunch["fileTransport"] {
  return launchedChildren.get(child)?.fileTransport;
}

/** Whether this child runs under the supervisor (its pid is bubblewrap's, not the plugin's). */
export function isSupervised(child: ChildProcessWithoutNullStreams): boolean {
  return supervisedChildren.has(child);
}

/** Signal a whole process group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EPERM: the id now belongs to someone else's process; ours is gone either way.
    if (code === "ESRCH" || code === "EPERM") return false;
    throw error;
  }
}

/** Whether any process of the group is still alive (zombies included until reaped). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/**
 * After the leader exited, SIGKILL anything it left in its group: a plugin that forks helpers and
 * exits must not leave them behind ("No orphans, ever", H4).
 */
export function sweepGroup(pgid: number): boolean {
  const found = signalGroup(pgid, "SIGKILL");
  liveGroups.delete(pgid);
  return found;
}

/**
 * Whether the group still has a member that is not a zombie. Members a plugin left behind are
 * reparented to init, which may reap them seconds later; a zombie holds no resources, so it does
 * not count. Reads /proc where it exists, else falls back to `kill(-pgid, 0)`.
 */
export function groupHasLiveMembers(pgid: number): boolean {
  if (!groupAlive(pgid)) return false;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}
