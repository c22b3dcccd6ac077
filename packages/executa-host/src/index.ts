// Launch detection and specs (src/launch).
export type { ExecutaType, LaunchSpec } from "./launch/types.js";
export { LaunchError } from "./launch/launch-error.js";
export type { LaunchErrorCode } from "./launch/launch-error.js";
export { detectLaunchSpec } from "./launch/detect.js";
export type { DetectLaunchOptions } from "./launch/detect.js";
export type { DetectOptions } from "./launch/detect-context.js";
export { discoverExecutas, isIgnoredFolder } from "./launch/discover.js";
export type { DiscoveryResult } from "./launch/discover.js";
export { listPluginEntries } from "./launch/plugin-entries.js";
export type { PluginEntry } from "./launch/plugin-entries.js";
export { parseSpecString, resolveSpecString, SPEC_KEYS } from "./launch/spec-string.js";
export type {
  ParsedSpecString,
  ResolveSpecStringOptions,
  SpecStringOptions,
} from "./launch/spec-string.js";
export { shellSplit, ShellSplitError } from "./launch/shell-split.js";
export { buildPluginEnv } from "./launch/plugin-env.js";
export type { PluginEnvOptions } from "./launch/plugin-env.js";
export { PATH_LIKE_VARS } from "./launch/path-env.js";
export { platformKey, normalizePlatformKey } from "./launch/platform-key.js";
export { createWhich } from "./launch/which.js";
export type { Which, WhichOptions } from "./launch/which.js";
export { probeVersion } from "./launch/tool-version.js";
export type { VersionProbe } from "./launch/tool-version.js";
export { EXECUTA_TYPES } from "./launch/executa-json.js";

// Process supervision, invoke and the pool (src/process, src/host).
export { ExecutaHost } from "./host/executa-host.js";
export type { ExecutaHostOptions, ProcessListener, RegisterOptions } from "./host/executa-host.js";
export {
  DEFAULT_CLIENT_INFO,
  DESCRIBE_TIMEOUT_BINARY_COLD_START_MS,
  DESCRIBE_TIMEOUT_MS,
  HEALTH_TIMEOUT_MS,
  INITIALIZE_TIMEOUT_MS,
  MAX_RESTART_ATTEMPTS,
  PluginProcess,
  RESTART_BACKOFF_BASE_MS,
  RESTART_COUNTER_RESET_MS,
  healthFromResult,
} from "./process/plugin-process.js";
export type {
  HealthReport,
  HealthStatus,
  InvokeOptions,
  PluginProcessOptions,
  PluginTimeouts,
  RestartPolicy,
} from "./process/plugin-process.js";
export type {
  PluginEventName,
  PluginEvents,
  PluginListener,
  PluginState,
} from "./process/events.js";
export {
  DEFAULT_INVOKE_TIMEOUT_MS,
  buildInvokeParams,
  normaliseInvokeResult,
  toInvokeResultWire,
} from "./process/invoke.js";
export type {
  InvokeContext,
  InvokeOutcome,
  InvokeParams,
  InvokeParamsInput,
  InvokeResultWire,
} from "./process/invoke.js";
export { readDescribeResult } from "./process/manifest.js";
export type { DescribedManifest, ManifestReading } from "./process/manifest.js";
export {
  ExecutaHostError,
  HOST_ERROR_CODE,
  PROCESS_ERROR_CODES,
  hostError,
} from "./process/errors.js";
export type { ProcessErrorCode } from "./process/errors.js";
export {
  PROTOCOL_VERSION_OFFERED,
  initializeParams,
  readInitializeResult,
} from "./process/plugin-instance.js";
export type { ClientInfo, ExitInfo, HandshakeResult } from "./process/plugin-instance.js";
export {
  DEFAULT_SHUTDOWN_GRACE,
  KILL_WAIT_MS,
  SHUTDOWN_REQUEST_TIMEOUT_MS,
  STDIN_GRACE_MS,
  TERM_GRACE_MS,
  shutdownPluginProcess,
} from "./process/shutdown.js";
export type {
  ShutdownGrace,
  ShutdownOptions,
  ShutdownStep,
  ShutdownTarget,
} from "./process/shutdown.js";
export { groupAlive, signalGroup, spawnPluginProcess } from "./process/spawn.js";
export type { SpawnRequest } from "./process/spawn.js";
export {
  CappedLineSplitter,
  STDERR_MAX_LINE_CHARS,
  STDERR_TAIL_LINES,
  StderrRing,
} from "./process/stderr-ring.js";
export { refuseReverseRequest } from "./process/default-reverse.js";

// Offline storage and files: the loopback blob server behind presigned URLs.
export {
  BLOB_MAX_OBJECT_BYTES,
  BLOB_MAX_STORED_BYTES,
  BlobServerError,
  LoopbackBlobServer,
} from "./services/offline/blob-server.js";
export type {
  BlobStat,
  LoopbackBlobServerOptions,
  PresignGetOptions,
  PresignPutOptions,
  PresignedUrl,
} from "./services/offline/blob-server.js";
