// The supervisor that makes "no orphans" hold even when the host is SIGKILLed: on Linux each plugin
// runs in a new PID namespace under bubblewrap, whose init is SIGKILLed when the host dies
// (`--die-with-parent`), and the kernel kills every process of a namespace when its init dies —
// including helpers that called setsid and ignore SIGTERM, which no process-group signal reaches.

import { spawnSync } from "node:child_process";
import { constants as osConstants } from "node:os";
import * as path from "node:path";
import { createWhich } from "../launch/which.js";

/** `auto`: bubblewrap when it works here, else none; `bwrap`: required; `none`: opt out. */
export type SupervisorMode = "auto" | "bwrap" | "none";
export const SUPERVISOR_MODES: readonly SupervisorMode[] = ["auto", "bwrap", "none"];
/** The host-wide opt-out, read when no `supervisor` option is given. */
export const SUPERVISOR_ENV = "ANNA_EXECUTA_SUPERVISOR";

export type SupervisorStatus =
  { kind: "bwrap"; bwrap: string; env: string } | { kind: "none"; reason: string };

const PROBE_TIMEOUT_MS = 5_000;

/**
 * The sandbox shows the plugin the filesystem it saw before (`--dev-bind / /`: same files, /tmp,
 * HOME, toolchains, devices), the network as before (not unshared) and a /proc of its own
 * namespace. Only the PID namespace is new.
 */
const BWRAP_ARGS = [
  "--die-with-parent",
  "--unshare-pid",
  "--dev-bind",
  "/",
  "/",
  "--proc",
  "/proc",
] as const;

export class SupervisorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SupervisorError";
  }
}

/** The mode from the option, else from ANNA_EXECUTA_SUPERVISOR, else `auto`. */
export function resolveSupervisorMode(
  option: SupervisorMode | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SupervisorMode {
  if (option !== undefined) return checkMode(option, "the supervisor option");
  const value = env[SUPERVISOR_ENV];
  if (value === undefined || value === "") return "auto";
  return checkMode(value, SUPERVISOR_ENV);
}

function checkMode(value: string, where: string): SupervisorMode {
  if ((SUPERVISOR_MODES as readonly string[]).includes(value)) return value as SupervisorMode;
  throw new SupervisorError(
    `${where} is "${value}"; expected one of ${SUPERVISOR_MODES.join(", ")}`,
  );
}

let cachedProbe: SupervisorStatus | undefined;

/**
 * Whether bubblewrap can run a plugin here, asked once per host process: it runs the exact
 * wrapper around `true`. A missing binary, a kernel without unprivileged user namespaces (when
 * not root) or an `env` without `--ignore-signal` (coreutils < 8.31) each give a reason.
 */
export function probeSupervisor(
  options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; fresh?: boolean } = {},
): SupervisorStatus {
  if (cachedProbe !== undefined && options.fresh !== true && options.env === undefined) {
    return cachedProbe;
  }
  const status = runProbe(options.env ?? process.env, options.platform ?? process.platform);
  if (options.env === undefined) cachedProbe = status;
  return status;
}

function runProbe(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): SupervisorStatus {
  if (platform !== "linux") {
    return { kind: "none", reason: `PID namespaces exist only on Linux (this is ${platform})` };
  }
  const which = createWhich({ env, platform });
  const bwrap = which("bwrap");
  if (bwrap === undefined) {
    return { kind: "none", reason: "bwrap is not on PATH (Debian/Ubuntu: apt install bubblewrap)" };
  }
  const envBin = which("env");
  if (envBin === undefined) return { kind: "none", reason: "env (coreutils) is not on PATH" };
  const supervised = { kind: "bwrap", bwrap, env: envBin } as const;
  const [file, ...args] = wrapCommand(supervised, ["true"], "/");
  const result = spawnSync(file!, args, {
    env,
    encoding: "utf8",
    timeout: PROBE_TIMEOUT_MS,
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (result.status === 0) return supervised;
  const said = (result.stderr ?? "").trim().split("\n")[0] ?? "";
  const why = result.error?.message ?? (said || `exit code ${String(result.status)}`);
  return { kind: "none", reason: `bwrap cannot create a PID namespace here: ${why}` };
}

/** What a plugin will run under for this mode; throws when `bwrap` is required but unusable. */
export function supervisorFor(mode: SupervisorMode): SupervisorStatus {
  if (mode === "none") return { kind: "none", reason: `turned off (${SUPERVISOR_ENV}=none)` };
  const status = probeSupervisor();
  if (mode === "bwrap" && status.kind === "none") {
    throw new SupervisorError(
      `the bwrap supervisor was asked for but is not usable: ${status.reason}; ` +
        `set ${SUPERVISOR_ENV}=auto to run plugins without it`,
    );
  }
  return status;
}

/**
 * `env --ignore-signal=TERM` makes bubblewrap itself (the process group leader the host signals)
 * ignore the SIGTERM step of a shutdown, so the plugin gets its grace period instead of dying with
 * bubblewrap; `env --default-signal=TERM` gives the plugin back the default disposition.
 * `file` must be an absolute path: a command bwrap cannot exec would otherwise fail inside the
 * sandbox as "exit 1" instead of the ENOENT the host reports.
 */
export function wrapCommand(
  status: Extract<SupervisorStatus, { kind: "bwrap" }>,
  command: readonly string[],
  cwd: string,
): string[] {
  return [
    status.env,
    "--ignore-signal=TERM",
    status.bwrap,
    ...BWRAP_ARGS,
    "--chdir",
    cwd,
    "--",
    status.env,
    "--default-signal=TERM",
    ...command,
  ];
}

/** The executable a spawn would run, resolved like `spawn` does (PATH of the child's env, cwd). */
export function resolveExecutable(
  file: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  // No PATH: execvp's default search path, as `spawn` would use.
  const which = createWhich({ env: { PATH: env.PATH ?? "/usr/bin:/bin" } });
  return which(file.includes("/") ? path.resolve(cwd, file) : file);
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/**
 * bubblewrap reports a plugin killed by signal N as exit code 128 + N; give it back as the signal
 * so "killed by SIGTERM" reads the same with and without the supervisor. A plugin that itself
 * exits with such a code is indistinguishable and reads as the signal too.
 */
export function supervisedExit(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  if (signal !== null || code === null || code <= 128) return { code, signal };
  const name = SIGNAL_NAMES.get(code - 128);
  return name === undefined ? { code, signal } : { code: null, signal: name };
}
