import { defineFamily } from "./types.js";

/**
 * `web/*` reverse RPCs. The Reference gives only the range -32521…-32528 (L11363, R157); the
 * names follow the embeddings layout so the host has a NOT_GRANTED / NOT_NEGOTIATED code to
 * send (H13). -32526 stays unassigned (D-schema-5).
 */
export const WEB_ERRORS = defineFamily("web", {
  NOT_GRANTED: {
    code: -32521,
    errorCode: "WEB_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
  },
  QUOTA_EXCEEDED: {
    code: -32522,
    errorCode: "WEB_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  PROVIDER_ERROR: {
    code: -32523,
    errorCode: "WEB_PROVIDER_ERROR",
    message: "provider_error",
    retryable: true,
  },
  INVALID_REQUEST: {
    code: -32524,
    errorCode: "WEB_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  TIMEOUT: { code: -32525, errorCode: "WEB_TIMEOUT", message: "timeout", retryable: true },
  NOT_NEGOTIATED: {
    code: -32527,
    errorCode: "WEB_NOT_NEGOTIATED",
    message: "not_negotiated",
    retryable: false,
  },
  USER_DENIED: {
    code: -32528,
    errorCode: "WEB_USER_DENIED",
    message: "user_denied",
    retryable: false,
  },
});
