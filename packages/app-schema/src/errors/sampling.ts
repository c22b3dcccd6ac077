import { defineFamily } from "./types.js";

/** `sampling/createMessage` (L1886–L1903, R30). */
export const SAMPLING_ERRORS = defineFamily("sampling", {
  NOT_GRANTED: {
    code: -32001,
    errorCode: "SAMPLING_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
  },
  QUOTA_EXCEEDED: {
    code: -32002,
    errorCode: "SAMPLING_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  PROVIDER_ERROR: {
    code: -32003,
    errorCode: "SAMPLING_PROVIDER_ERROR",
    message: "provider_error",
    retryable: true,
  },
  INVALID_REQUEST: {
    code: -32004,
    errorCode: "SAMPLING_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  TIMEOUT: { code: -32005, errorCode: "SAMPLING_TIMEOUT", message: "timeout", retryable: true },
  // Terminal within one invoke_id: MAX_CALLS, MAX_TOKENS, USER_DENIED (L1884).
  MAX_CALLS_EXCEEDED: {
    code: -32006,
    errorCode: "SAMPLING_MAX_CALLS_EXCEEDED",
    message: "max_calls_exceeded",
    retryable: false,
  },
  MAX_TOKENS_EXCEEDED: {
    code: -32007,
    errorCode: "SAMPLING_MAX_TOKENS_EXCEEDED",
    message: "max_tokens_exceeded",
    retryable: false,
  },
  NOT_NEGOTIATED: {
    code: -32008,
    errorCode: "SAMPLING_NOT_NEGOTIATED",
    message: "not_negotiated",
    retryable: false,
    alias: "sampling_disabled",
  },
  USER_DENIED: {
    code: -32009,
    errorCode: "SAMPLING_USER_DENIED",
    message: "user_denied",
    retryable: false,
  },
  UNSUPPORTED_RESPONSE_FORMAT: {
    code: -32010,
    errorCode: "SAMPLING_UNSUPPORTED_RESPONSE_FORMAT",
    message: "unsupported_response_format",
    retryable: false,
  },
});
