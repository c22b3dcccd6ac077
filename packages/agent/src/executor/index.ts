// The executor: installed executas in per-(user, tool) sandboxed processes, and exec_*.
export {
  ExecutaPool,
  PoolFullError,
  DEFAULT_POOL_IDLE_MS,
  DEFAULT_POOL_MAX_PROCESSES,
} from "./executa-pool.js";
export type { ExecutaPoolOptions, PoolExecuta, PoolInvokeOptions } from "./executa-pool.js";
export { executaTools, modelToolName, outcomeToToolResult } from "./executa-tools.js";
export {
  EXEC_DEFAULT_TIMEOUT_MS,
  EXEC_MAX_COMMANDS,
  EXEC_MAX_OUTPUT_BYTES,
  EXEC_MAX_TIMEOUT_MS,
  execTools,
} from "./exec-tools.js";
export {
  Sandbox,
  SandboxRefusedError,
  SANDBOX_HOME,
  SANDBOX_TMP,
  SANDBOX_WORKSPACE,
} from "./sandbox.js";
export type { SandboxedCommand } from "./sandbox.js";
export { probeBwrap } from "./bwrap-probe.js";
export type { BwrapProbe } from "./bwrap-probe.js";
export {
  DEFAULT_RUN_AS,
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_ALLOW_UNSANDBOXED_ENV,
  SANDBOX_ENV,
  SANDBOX_MODES,
  SANDBOX_NETWORK_ENV,
  SandboxConfigError,
  sandboxOptionsFromEnv,
} from "./sandbox-options.js";
export type { SandboxLimits, SandboxMode, SandboxOptions } from "./sandbox-options.js";
