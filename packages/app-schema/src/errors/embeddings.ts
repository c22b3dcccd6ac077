import { defineFamily } from "./types.js";

/**
 * `embeddings/create` (L9322–L9330, R55). The Reference names 01, 03, 04, 07 and 08; H12 fixes
 * the range -32501…-32508. -32502 and -32505 follow the sampling/image layout
 * (quota, timeout); -32506 stays unassigned (D-schema-4).
 */
export const EMBEDDINGS_ERRORS = defineFamily("embeddings", {
  NOT_GRANTED: {
    code: -32501,
    errorCode: "EMBED_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
  },
  QUOTA_EXCEEDED: {
    code: -32502,
    errorCode: "EMBED_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  PROVIDER_ERROR: {
    code: -32503,
    errorCode: "EMBED_PROVIDER_ERROR",
    message: "provider_error",
    retryable: true,
  },
  INVALID_REQUEST: {
    code: -32504,
    errorCode: "EMBED_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  TIMEOUT: { code: -32505, errorCode: "EMBED_TIMEOUT", message: "timeout", retryable: true },
  NOT_NEGOTIATED: {
    code: -32507,
    errorCode: "EMBED_NOT_NEGOTIATED",
    message: "not_negotiated",
    retryable: false,
  },
  USER_DENIED: {
    code: -32508,
    errorCode: "EMBED_USER_DENIED",
    message: "user_denied",
    retryable: false,
  },
});
