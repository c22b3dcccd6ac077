// Every way an install can fail. Messages are one line naming what was wrong and what would be
// right, because the CLI prints them as-is; `code` lets callers (the CLI's exit codes, a batch
// report) tell a bad request from a tampered download without parsing text.

export type InstallErrorCode =
  /** The request itself: unknown distribution type, missing executable_name for `local`, … */
  | "INVALID_REQUEST"
  /** `binary_urls` has no asset for this platform (R76). */
  | "NO_ASSET"
  /** The HTTP fetch failed, answered non-2xx, stalled or was cut short. */
  | "DOWNLOAD_FAILED"
  /** The bytes are not the ones the asset declared (size or sha256, R76/R78 step 3). */
  | "INTEGRITY_MISMATCH"
  /** A bound was crossed: download size, extracted size, entry count. */
  | "TOO_LARGE"
  /** An archive member would land outside the staging folder, or is a device/FIFO (zip-slip). */
  | "UNSAFE_ARCHIVE"
  /** The archive cannot be read as the format it claims. */
  | "CORRUPT_ARCHIVE"
  /** The in-archive manifest.json is not what R77 describes. */
  | "INVALID_MANIFEST"
  /** No entrypoint could be resolved, or it is not a regular file inside the archive. */
  | "NO_ENTRYPOINT"
  /** Nothing is installed under that tool_id (launching, uninstalling). */
  | "NOT_INSTALLED";

export class InstallError extends Error {
  readonly code: InstallErrorCode;

  constructor(code: InstallErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message.replace(/\s*\r?\n\s*/g, " "), { cause: options.cause });
    this.name = "InstallError";
    this.code = code;
  }
}
