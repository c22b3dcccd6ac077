// What the operator chooses about the plugin sandbox, with the defaults and the environment
// variables a server reads them from. "none" runs plugins as plain child processes; for plugins
// the server does not trust that takes an explicit second opt-out (`allowUnsandboxed`).

export type SandboxMode = "bwrap" | "none";
export const SANDBOX_MODES: readonly SandboxMode[] = ["bwrap", "none"];

export const SANDBOX_ENV = "ANNA_SANDBOX";
export const SANDBOX_ALLOW_UNSANDBOXED_ENV = "ANNA_SANDBOX_ALLOW_UNSANDBOXED";
export const SANDBOX_NETWORK_ENV = "ANNA_SANDBOX_NETWORK";

export interface SandboxLimits {
  /** RLIMIT_NPROC: processes of the sandbox's uid (see `runAs`: counted machine-wide per uid). */
  maxProcesses: number;
  /** RLIMIT_AS in bytes. Node needs about 1 GiB of address space just to start. */
  addressSpaceBytes: number;
  /** RLIMIT_CPU: CPU seconds over a process's whole life (a warm plugin's too). */
  cpuSeconds: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
}

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  maxProcesses: 256,
  addressSpaceBytes: 4 * 1024 ** 3,
  cpuSeconds: 3_600,
  openFiles: 1_024,
});

/** The unprivileged identity plugins run as when the server runs as root (nobody:nogroup). */
export const DEFAULT_RUN_AS = Object.freeze({ uid: 65534, gid: 65534 });

export interface SandboxOptions {
  mode: SandboxMode;
  /** Holds `plugins/<user>/<tool>/{home,tmp}` and `workspaces/<user>`; must be absolute. */
  root: string;
  /** Network stays as the host's unless false (`--unshare-net`: loopback only). Default true. */
  network?: boolean;
  limits?: Partial<SandboxLimits>;
  /** Extra read-only folders, e.g. a toolchain outside /usr (`/opt/go`, `~/.pyenv`). */
  readOnlyPaths?: readonly string[];
  /**
   * The uid/gid the sandbox runs as when the server is root (root ignores RLIMIT_NPROC).
   * Default nobody:nogroup; ignored when the server is not root (it cannot change uid).
   */
  runAs?: { uid: number; gid: number };
  /** With mode "none": run plugins not marked trusted anyway. The operator's explicit opt-out. */
  allowUnsandboxed?: boolean;
}

export class SandboxConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxConfigError";
  }
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (TRUE_WORDS.has(raw)) return true;
  if (FALSE_WORDS.has(raw)) return false;
  throw new SandboxConfigError(`${name}=${raw} must be one of 1, true, yes, on, 0, false, no, off`);
}

/** ANNA_SANDBOX (bwrap | none, default bwrap), ANNA_SANDBOX_ALLOW_UNSANDBOXED, ANNA_SANDBOX_NETWORK. */
export function sandboxOptionsFromEnv(root: string, env: NodeJS.ProcessEnv): SandboxOptions {
  const raw = env[SANDBOX_ENV]?.trim() ?? "";
  const mode = raw === "" ? "bwrap" : raw;
  if (!(SANDBOX_MODES as readonly string[]).includes(mode)) {
    throw new SandboxConfigError(
      `${SANDBOX_ENV}=${mode} must be one of ${SANDBOX_MODES.join(", ")}`,
    );
  }
  return {
    mode: mode as SandboxMode,
    root,
    network: flag(env, SANDBOX_NETWORK_ENV, true),
    allowUnsandboxed: flag(env, SANDBOX_ALLOW_UNSANDBOXED_ENV, false),
  };
}

export function sandboxLimits(options: SandboxOptions): SandboxLimits {
  return { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
}
