// The hook a caller uses to run plugins under its own wrapper (a stricter sandbox, resource
// limits) instead of the built-in supervisor: it receives the command the host would spawn and
// returns the one to spawn. Called once per start, so a restart is wrapped the same way.

export interface LaunchCommand {
  command: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface WrappedLaunch extends LaunchCommand {
  /**
   * The wrapper reports the plugin's death by signal N as exit code 128 + N (bubblewrap does):
   * the host translates it back so messages read "killed by SIGKILL" either way.
   */
  signalsAsExitCodes: boolean;
  /**
   * Where the wrapped plugin's `__file_transport` files appear on the host (T2), when the
   * wrapper gives it a temp folder of its own, and the uid that writes them. Pointers to any
   * other folder (the host's /tmp included) are then refused.
   */
  fileTransport?: { dir: string; ownerUid?: number };
}

/** Throwing refuses the start; the message reaches the caller as the start error. */
export type PluginLauncher = (request: LaunchCommand) => WrappedLaunch;
