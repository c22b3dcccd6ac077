// A resolved way to start one plugin process. Detection (src/launch) produces it; supervision
// (src/process) consumes it without looking at the plugin's files again.

import type { ToolchainCheck } from "./tool-version.js";

/** `mcp`: an MCP server run through the host's bridge (`src/mcp`), not a plugin of its own. */
export type ExecutaType = "python" | "node" | "go" | "binary" | "mcp";

export interface LaunchSpec {
  /** Identity (H16): executa.json `tool_id`, else the package/script name, else the folder name. */
  toolId: string;
  type: ExecutaType;
  /** The plugin's folder (absolute). */
  dir: string;
  /** argv: command[0] is resolved through PATH by the spawner. Never empty. */
  command: readonly string[];
  /** Working directory (absolute): the plugin folder, or EXECUTA_HOME for installed binaries. */
  cwd: string;
  /**
   * Extra environment on top of the user's (EXECUTA_HOME, EXECUTA_DATA, library path, PATH
   * prefix, …). Values replace inherited ones; PATH-like values are already merged.
   */
  env: Readonly<Record<string, string>>;
  /**
   * For each PATH-like variable in `env`: the folders detection put in front of the inherited
   * value. Lets `buildPluginEnv` redo the merge over a different base environment. Optional so
   * hand-written specs stay valid.
   */
  pathPrepend?: Readonly<Record<string, readonly string[]>>;
  /** A binary's first start may take 60 s to describe (T3, Z2) instead of 5 s. */
  binaryColdStart: boolean;
  /** How the spec was found, for messages: "executa.json", "pyproject.toml", "--spec", … */
  source: string;
  /** Non-fatal findings (e.g. "uv not found; starting with python3 main.py"). */
  warnings: readonly string[];
  /**
   * The launcher `command[0]` needs and the version found, when it is a toolchain (go,
   * python3): the host refuses to spawn a missing one with a line saying what to install.
   */
  toolchain?: ToolchainCheck;
}
