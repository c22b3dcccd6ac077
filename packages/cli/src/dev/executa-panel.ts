// The executa list the banner and the panel show, kept current as plugins start, stop, write to
// stderr and restart after a source change.
import type { ExecutaHost } from "@anna-ai/executa-host";
import type { Logger } from "@anna-ai/jsonrpc";
import type { DevPanel } from "./dev-panel.js";

/** The panel's executa list is refreshed at most this often. */
export const PANEL_PUSH_INTERVAL_MS = 100;

/** Lines of a plugin's stderr the banner and panel show. */
export const STDERR_TAIL_LINES = 10;

export interface ExecutaState {
  tool_id: string;
  type: string;
  dir: string;
  state: string;
  reason?: string;
  stderr: string[];
}

export function executaStatesOf(host: ExecutaHost): ExecutaState[] {
  return host.processes().map((p) => ({
    tool_id: p.toolId,
    type: p.spec.type,
    dir: p.spec.dir,
    state: p.state,
    ...(p.stoppedReason === undefined ? {} : { reason: p.stoppedReason }),
    stderr: p.stderrTail(STDERR_TAIL_LINES),
  }));
}

/** Pushes the executa list to the panel on every process change; `stop` drops a pending push. */
export function followExecutas(host: ExecutaHost, panel: DevPanel): { stop(): void } {
  // Re-registered plugins (after a source change) are new processes: follow every one.
  // State changes and stderr lines refresh the panel's executa list, at most once per tick
  // window (a chatty plugin must not flood the page).
  let executaPush: NodeJS.Timeout | undefined;
  const pushExecutas = () => {
    executaPush ??= setTimeout(() => {
      executaPush = undefined;
      panel.push("executas", executaStatesOf(host));
    }, PANEL_PUSH_INTERVAL_MS);
  };
  host.onProcess((proc) => {
    proc.on("state", pushExecutas);
    proc.on("stderr", pushExecutas);
  });
  return { stop: () => clearTimeout(executaPush) };
}

/** What a source change of executa `toolId` does (the watcher's callback). */
export function restartExecuta(
  host: ExecutaHost,
  userId: string,
  panel: DevPanel,
  logger: Logger,
): (toolId: string) => void {
  return (toolId) => {
    const proc = host.get(userId, toolId);
    // A running plugin is swapped for a fresh registration: it starts with the new source on
    // its next invoke (lazily, like the first start). An idle one already will.
    if (proc !== undefined && proc.state !== "idle") {
      const spec = proc.spec;
      void host.unregister(userId, toolId).then(
        () => {
          host.register(spec, { userId });
          panel.push("executa_restarted", { tool_id: toolId });
          panel.push("executas", executaStatesOf(host));
        },
        (error: unknown) =>
          logger.error("executa restart failed", { toolId, error: String(error) }),
      );
    }
  };
}
