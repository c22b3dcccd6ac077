import type { ToolchainCheck } from "./tool-version.js";

/** What a per-type launcher decided: the argv, type-specific env and findings to report. */
export interface LaunchPlan {
  /** The launcher the command needs (go, python3) and what is installed. */
  toolchain?: ToolchainCheck;
  command: readonly string[];
  warnings: string[];
  env?: Record<string, string>;
  /** Folders to put in front of a PATH-like variable (PYTHONPATH for uv path sources). */
  pathPrepend?: Record<string, string[]>;
}
