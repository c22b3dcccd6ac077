// One error type crosses the HTTP boundary, and one table maps its code to a status. The body
// shape is `{"detail": {"code", "message", ...}}` because the published CLI reads only `detail`
// (real-world-cli.md §0.2: `detail.code`/`detail.message`; missing scope as
// `detail.detail == "missing_scope"`).

export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  invalid_device_code: 400,
  invalid_verification_link: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  token_revoked: 401,
  token_expired: 401,
  forbidden: 403,
  csrf_rejected: 403,
  missing_scope: 403,
  admin_required: 403,
  // Spec-named codes keep the spec's spelling (R3/S3).
  PAT_NOT_ALLOWED: 403,
  EMAIL_NOT_VERIFIED: 403,
  DEVELOPER_REVOKED: 403,
  TOS_NOT_ACCEPTED: 400,
  TOS_VERSION_MISMATCH: 409,
  // L5922: bundle HTML is served only into a frame.
  must_be_iframed: 403,
  not_found: 404,
  email_taken: 409,
  handle_taken: 409,
  device_code_expired: 410,
  verification_link_expired: 410,
  APP_SESSION_EXPIRED: 410,
  // The copilot endpoints (spec L7188–7195): a revoked session is gone (410); a lapsed token of
  // a live session is re-minted with refresh (401).
  APP_SESSION_REVOKED: 410,
  APP_SESSION_TOKEN_EXPIRED: 401,
  permission_denied: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  misdirected_host: 421,
  internal: 500,
  unavailable: 503,
  // APS storage (R41), by the catalog's short names; statuses as the Host API's table
  // (app-schema host-api) where it names one: precondition 412, too large 413, quota 429.
  not_granted: 403,
  precondition_failed: 412,
  value_too_large: 413,
  quota_exceeded: 429,
  invalid_path: 400,
  invalid_request: 400,
  upstream_error: 502,
  // Executa Hub (S2, R9, R10): each names the state that refused and the next step.
  handle_required: 400,
  slug_taken: 409,
  version_exists: 409,
  version_not_greater: 409,
  no_changes: 409,
  executa_archived: 409,
  executa_referenced: 409,
  draft_committed: 409,
  draft_expired: 410,
  // Executa binaries (real-world-cli.md §B): each names the platform or part it is about.
  checksum_mismatch: 422,
  size_mismatch: 422,
  upload_incomplete: 409,
  upload_expired: 410,
  version_frozen: 409,
  publisher_exists: 409,
  oidc_rejected: 401,
  no_trusted_publisher: 403,
  // App registry (S1, real-world-cli.md §3): each names the state that refused and the next step.
  HANDLE_REQUIRED: 409,
  developer_required: 403,
  app_limit_reached: 409,
  app_state: 409,
  release_rejected: 409,
  app_has_installs: 409,
  stale_revision: 409,
  already_cut: 409,
  invalid_manifest: 422,
  bundle_finalized: 409,
  bundle_incomplete: 409,
  bundle_mismatch: 400,
  // App Store and installs (A35–A37): the app's state, or what still needs the executa.
  app_not_installable: 409,
  no_published_version: 409,
  executa_required: 409,
  executa_not_installable: 409,
  // Chat turns: one running turn per conversation.
  turn_running: 409,
  // Admin settings: a setting the server's environment sets cannot be changed from the page.
  setting_pinned: 409,
  // Connected accounts: a user's accounts per provider are bounded.
  account_limit_reached: 409,
  // A sent attachment belongs to its message: only deleting the conversation removes it.
  attachment_sent: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class NexusError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Seconds, sent as `Retry-After` (429). */
  readonly retryAfterS: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown>; retryAfterS?: number },
  ) {
    super(message, { cause: options?.cause });
    this.name = "NexusError";
    this.code = code;
    this.details = options?.details;
    this.retryAfterS = options?.retryAfterS;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { detail: Record<string, unknown> } {
    return { detail: { ...this.details, code: this.code, message: this.message } };
  }
}
