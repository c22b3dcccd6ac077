// The client-side executa install pipeline (R74–R80), re-exported by name.
export { ARCHIVE_MANIFEST, entrypointFor, readArchiveManifest } from "./archive-manifest.js";
export type { ArchiveManifest } from "./archive-manifest.js";
export { inferArchiveFormat, parseBinaryAsset, resolveBinaryAsset } from "./binary-asset.js";
export type { ArchiveFormat, BinaryAsset, ResolvedAsset } from "./binary-asset.js";
export { DEFAULT_BATCH_CONCURRENCY, installBatch } from "./batch.js";
export type { BatchOptions, BatchOutcome } from "./batch.js";
export { InstallError } from "./install-error.js";
export type { InstallErrorCode } from "./install-error.js";
export { DEFAULT_INSTALL_LIMITS, installExecuta, requestToolId } from "./install.js";
export type {
  InstallLimits,
  InstallOptions,
  InstallPhase,
  InstallProgress,
  InstallRequest,
  InstallResult,
} from "./install.js";
export { readInstallRecord } from "./install-record.js";
export type { InstallRecord } from "./install-record.js";
export {
  findInstalled,
  installedLaunchSpec,
  listInstalled,
  versionLaunchSpec,
} from "./installed.js";
export type { InstalledExecuta } from "./installed.js";
export {
  DEFAULT_KEEP_VERSIONS,
  executaHome,
  HOME_ENV,
  INSTALL_V2_ENV,
  KEEP_VERSIONS_ENV,
  sanitizeToolId,
  sanitizeVersion,
  versionDirName,
} from "./layout.js";
