// What every implementation under test offers the metric code: one started plugin, ready to
// take the echo workload. Each implementation's adapter hides its own protocol and framing.
import type { ChildEnv } from "../child-env.js";

export type ImplName = "floor" | "mcp" | "ours";

export interface BenchClient {
  /** The plugin's process id, for /proc readings. */
  readonly pid: number;
  /** Round trip of the `echo` tool; resolves with the echoed text. */
  echo(text: string): Promise<string>;
  /** Invoke `reverse`: the plugin makes one reverse call; resolves with its own timing (ms). */
  reverse(): Promise<number>;
  /** Invoke `flood`: one line of `bytes` bytes without a newline, then a valid reply. */
  flood(bytes: number): Promise<void>;
  close(): Promise<void>;
}

/** Start a plugin and resolve once it is ready (handshake + tool listing done). */
export type LaunchClient = (env: ChildEnv) => Promise<BenchClient>;
