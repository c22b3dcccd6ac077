import { defineFamily } from "./types.js";

/**
 * `host/uploadFile` wire codes (L3195–L3212; names from R63, which prefixes them `UPLOAD_`).
 * The Nexus gate uses other numbers for some of these (R63); plugins see only these.
 */
export const UPLOAD_ERRORS = defineFamily("upload", {
  NOT_GRANTED: {
    code: -32201,
    errorCode: "UPLOAD_NOT_GRANTED",
    message: "Upload token missing — host did not authorize host/uploadFile",
    retryable: false,
    alias: "upload_not_granted",
  },
  QUOTA_EXCEEDED: {
    code: -32202,
    errorCode: "UPLOAD_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  INVALID_REQUEST: {
    code: -32203,
    errorCode: "UPLOAD_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  // Also the per-invoke total-bytes budget, which R63 names without a code.
  TOO_LARGE: {
    code: -32204,
    errorCode: "UPLOAD_TOO_LARGE",
    message: "too_large",
    retryable: false,
    aka: ["UPLOAD_MAX_BYTES_EXCEEDED"],
  },
  MIME_REJECTED: {
    code: -32205,
    errorCode: "UPLOAD_MIME_REJECTED",
    message: "mime_rejected",
    retryable: false,
  },
  PURPOSE_REJECTED: {
    code: -32206,
    errorCode: "UPLOAD_PURPOSE_REJECTED",
    message: "purpose_rejected",
    retryable: false,
  },
  // ≤ 2 retries with backoff for STORAGE_ERROR and TIMEOUT (L3214).
  STORAGE_ERROR: {
    code: -32207,
    errorCode: "UPLOAD_STORAGE_ERROR",
    message: "storage_error",
    retryable: true,
  },
  TIMEOUT: { code: -32208, errorCode: "UPLOAD_TIMEOUT", message: "timeout", retryable: true },
  USER_DENIED: {
    code: -32209,
    errorCode: "UPLOAD_USER_DENIED",
    message: "user_denied",
    retryable: false,
  },
  NOT_NEGOTIATED: {
    code: -32210,
    errorCode: "UPLOAD_NOT_NEGOTIATED",
    message: "not_negotiated",
    retryable: false,
  },
  MAX_FILES_EXCEEDED: {
    code: -32211,
    errorCode: "UPLOAD_MAX_FILES_EXCEEDED",
    message: "max_files_exceeded",
    retryable: false,
  },
  NOT_FOUND: {
    code: -32212,
    errorCode: "UPLOAD_NOT_FOUND",
    message: "not_found",
    retryable: false,
  },
  PRESIGN_FAILED: {
    code: -32213,
    errorCode: "UPLOAD_PRESIGN_FAILED",
    message: "presign_failed",
    retryable: true,
  },
});
