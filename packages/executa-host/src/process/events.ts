// The observable side of a supervised plugin, for UIs and traces.

import type { DroppedLine, FrameMeta, JsonRpcMessage } from "@anna-ai/jsonrpc";

export type PluginState =
  /** Registered, no process yet (lazy spawn), or the last one was stopped by the host. */
  | "idle"
  | "starting"
  /** Spawned; `initialize` and `describe` in flight. */
  | "initializing"
  | "ready"
  | "stopping"
  /** Final until `restart()`: closed, or out of restart attempts (`reason` says which). */
  | "stopped"
  /** Exited unexpectedly; immediately followed by `restarting` or `stopped`. */
  | "crashed"
  /** Waiting out the backoff before the next start. */
  | "restarting";

export interface PluginEvents {
  state: { state: PluginState; previous: PluginState; reason?: string; pid?: number };
  stderr: { line: string; pid?: number };
  frame: { direction: "in" | "out"; message: JsonRpcMessage; meta: FrameMeta; pid?: number };
  exit: {
    pid?: number;
    code: number | null;
    signal: NodeJS.Signals | null;
    /** The host stopped it (shutdown, timeout kill, restart); false for crashes and clean exits. */
    hostInitiated: boolean;
  };
  restart: { attempt: number; maxAttempts: number; delayMs: number; reason: string };
  warning: {
    code:
      | "EXITS_AFTER_RESPONSE"
      | "OUTPUT_CLOSED"
      | "DROPPED_LINE"
      | "MANIFEST"
      | "PROTOCOL_FALLBACK"
      | "LAUNCH"
      | "LISTENER_FAILED";
    message: string;
    dropped?: DroppedLine;
  };
}

export type PluginEventName = keyof PluginEvents;
export type PluginListener<K extends PluginEventName> = (event: PluginEvents[K]) => void;
