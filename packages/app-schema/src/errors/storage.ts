import { defineFamily } from "./types.js";

/**
 * APS `storage/*` and `files/*` (L2370–L2384, R41). The guide's bare names (`NOT_FOUND`, …)
 * collide with other families, so every errorCode carries the `STORAGE_` prefix.
 */
export const STORAGE_ERRORS = defineFamily("storage", {
  NOT_GRANTED: {
    code: -32021,
    errorCode: "STORAGE_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
    alias: "storage_not_granted",
  },
  NOT_FOUND: {
    code: -32022,
    errorCode: "STORAGE_NOT_FOUND",
    message: "not_found",
    retryable: false,
  },
  // Re-read and retry with the fresh etag (plugins do, real-world-plugins.md).
  PRECONDITION_FAILED: {
    code: -32023,
    errorCode: "STORAGE_PRECONDITION_FAILED",
    message: "precondition_failed",
    retryable: true,
  },
  QUOTA_EXCEEDED: {
    code: -32024,
    errorCode: "STORAGE_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  VALUE_TOO_LARGE: {
    code: -32025,
    errorCode: "STORAGE_VALUE_TOO_LARGE",
    message: "value_too_large",
    retryable: false,
    aka: ["STORAGE_ERR_VALUE_TOO_LARGE"],
  },
  // Per-invoke RPC budget: not retryable within the same invoke (L2368).
  RATE_LIMITED: {
    code: -32026,
    errorCode: "STORAGE_RATE_LIMITED",
    message: "rate_limited",
    retryable: false,
    aka: ["STORAGE_ERR_RATE_LIMITED"],
  },
  INVALID_PATH: {
    code: -32027,
    errorCode: "STORAGE_INVALID_PATH",
    message: "invalid_path",
    retryable: false,
  },
  INVALID_REQUEST: {
    code: -32028,
    errorCode: "STORAGE_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  UPSTREAM_ERROR: {
    code: -32029,
    errorCode: "STORAGE_UPSTREAM_ERROR",
    message: "upstream_error",
    retryable: true,
  },
});

/** `files/*` shares the storage codes (L2370, R41): the same table under a second name. */
export const FILES_ERRORS = STORAGE_ERRORS;
