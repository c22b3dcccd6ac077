// The one error the Host API answers with (A3): `{code, message, details}` with a string code from
// the Host API vocabulary (L6651–L6667, R100). Handlers throw it; the dispatcher turns anything
// else into `internal_error` without leaking the message.

/** Every string code this dispatcher answers with. */
export const HOST_API_ERROR_CODES = Object.freeze([
  "invalid_token",
  "permission_denied",
  "invalid_arg",
  "not_found",
  "not_implemented",
  "method_not_found",
  "state_too_large",
  "precondition_failed",
  "invalid_path",
  "value_too_large",
  "quota_exceeded",
  "tool_timeout",
  "tool_failed",
  "executa_unavailable",
  "agent_unavailable",
  "subcall_timeout",
  "session_expired",
  "llm_disabled",
  "rate_limited",
  "job_quota_exceeded",
  "long_job_capacity",
  "job_not_found",
  "result_too_large",
  "cancelled",
  "internal_error",
  "APP_NOT_GRANTED",
  "APP_INVALID_REQUEST",
  "APP_QUOTA_EXCEEDED",
  "APP_PROVIDER_ERROR",
  "APP_SESSION_NOT_FOUND",
  "APP_SESSION_EXPIRED",
  "APP_SESSION_REVOKED",
  "APP_MODEL_NOT_VISION_CAPABLE",
] as const);

export type HostApiErrorCode = (typeof HOST_API_ERROR_CODES)[number];

/** The wire shape of an error inside `{id, ok: false, error}` (L6341). */
export interface HostApiErrorWire {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class HostApiError extends Error {
  readonly code: HostApiErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: HostApiErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "HostApiError";
    this.code = code;
    this.details = details;
  }

  toWire(): HostApiErrorWire {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isHostApiError(value: unknown): value is HostApiError {
  return value instanceof HostApiError;
}
