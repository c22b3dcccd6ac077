// The Host API's string error catalog (A3, L6651–L6667, R100) and the one table that turns a code
// into an HTTP status. The rpc envelope always answers 200 with `{ok: false, error}` (the code is
// the contract); the status matters for the REST routes beside it (windows, the event stream)
// and for the servers that mount them, which all answer through `httpStatusOf`.

/** Every string code the Host API answers with. */
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

/**
 * Codes the HTTP layer itself answers with, beside the Host API's: a body that is not JSON, too
 * many open event streams, a request from a foreign origin or for a foreign Host (DNS
 * rebinding), bundle HTML loaded outside an iframe, a recording the harness cannot replay.
 */
export const HTTP_LAYER_ERROR_CODES = Object.freeze([
  "unsupported_media_type",
  "too_many_streams",
  "forbidden_origin",
  "must_be_iframed",
  "misdirected_host",
  "invalid_recording",
] as const);

export type HttpLayerErrorCode = (typeof HTTP_LAYER_ERROR_CODES)[number];

/** Code → HTTP status, for every code either catalog holds. */
export const HOST_API_HTTP_STATUS: Readonly<Record<HostApiErrorCode | HttpLayerErrorCode, number>> =
  Object.freeze({
    invalid_token: 401,
    session_expired: 401,
    permission_denied: 403,
    APP_NOT_GRANTED: 403,
    forbidden_origin: 403,
    must_be_iframed: 403,
    invalid_arg: 400,
    invalid_path: 400,
    APP_INVALID_REQUEST: 400,
    APP_MODEL_NOT_VISION_CAPABLE: 400,
    not_found: 404,
    job_not_found: 404,
    method_not_found: 404,
    APP_SESSION_NOT_FOUND: 404,
    cancelled: 409,
    precondition_failed: 412,
    APP_SESSION_EXPIRED: 410,
    APP_SESSION_REVOKED: 410,
    state_too_large: 413,
    value_too_large: 413,
    result_too_large: 413,
    unsupported_media_type: 415,
    invalid_recording: 422,
    misdirected_host: 421,
    rate_limited: 429,
    too_many_streams: 429,
    quota_exceeded: 429,
    job_quota_exceeded: 429,
    long_job_capacity: 429,
    APP_QUOTA_EXCEEDED: 429,
    llm_disabled: 503,
    executa_unavailable: 503,
    agent_unavailable: 503,
    not_implemented: 501,
    internal_error: 500,
    tool_failed: 502,
    APP_PROVIDER_ERROR: 502,
    tool_timeout: 504,
    subcall_timeout: 504,
  });

/** The HTTP status a code answers with; 400 for a code neither catalog knows. */
export function httpStatusOf(code: string): number {
  return Object.hasOwn(HOST_API_HTTP_STATUS, code)
    ? HOST_API_HTTP_STATUS[code as HostApiErrorCode]
    : 400;
}

export function isHostApiErrorCode(code: string): code is HostApiErrorCode {
  return (HOST_API_ERROR_CODES as readonly string[]).includes(code);
}
