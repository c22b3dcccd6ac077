// One row of `anna-app doctor`.

/**
 * `ok` ✓; `warn` ! (an optional piece is missing or old: something specific is disabled);
 * `fail` ✗ (a required piece is missing or too old: the command exits non-zero).
 */
export type CheckStatus = "ok" | "warn" | "fail";

export interface CheckResult {
  /** Stable key for --json consumers: `node`, `npm`, `python`, `uv`, `go`, `dev-key`, `nexus`, `supervisor`. */
  id: string;
  /** What the table shows in its first column. */
  label: string;
  status: CheckStatus;
  /** Whether a failure makes doctor exit non-zero (D-cli-doctor-1). */
  required: boolean;
  /** The table's second column: a version, "missing", "not set", … */
  found: string;
  /** Version found, e.g. "20.19.2"; absent when the piece is missing. */
  version?: string;
  /** Where it was found (executable or folder). */
  path?: string;
  /** One line: what was found, or what is missing and what that disables. */
  detail: string;
}

export interface DoctorReport {
  /** False when a required check failed. */
  ok: boolean;
  checks: CheckResult[];
  /**
   * The saved Nexus account (`id: "account"`): file mode, parseable, not expired, accepted by
   * `GET /api/v1/me`. Always optional; absent only from reports built without it.
   */
  account?: CheckResult;
}
