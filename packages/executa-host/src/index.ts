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
