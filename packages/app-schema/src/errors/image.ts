import { defineFamily } from "./types.js";

/**
 * `image/generate` and `image/edit` (L2910–L2929, R60). H13 fixes NOT_NEGOTIATED at -32107,
 * so the per-call grant overflow the Reference puts there (R57) is reported as -32106
 * MAX_IMAGES_EXCEEDED, like the guide's table and the Reference overview do.
 */
export const IMAGE_ERRORS = defineFamily("image", {
  NOT_GRANTED: {
    code: -32101,
    errorCode: "IMAGE_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
    alias: "image_not_granted",
  },
  QUOTA_EXCEEDED: {
    code: -32102,
    errorCode: "IMAGE_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
  },
  PROVIDER_ERROR: {
    code: -32103,
    errorCode: "IMAGE_PROVIDER_ERROR",
    message: "provider_error",
    retryable: true,
  },
  INVALID_REQUEST: {
    code: -32104,
    errorCode: "IMAGE_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  TIMEOUT: {
    code: -32105,
    errorCode: "IMAGE_TIMEOUT",
    message: "timeout",
    retryable: true,
    aka: ["IMAGE_ERR_TIMEOUT"],
  },
  MAX_IMAGES_EXCEEDED: {
    code: -32106,
    errorCode: "IMAGE_MAX_IMAGES_EXCEEDED",
    message: "max_images_exceeded",
    retryable: false,
    aka: ["IMAGE_PER_CALL_EXCEEDED"],
  },
  NOT_NEGOTIATED: {
    code: -32107,
    errorCode: "IMAGE_NOT_NEGOTIATED",
    message: "not_negotiated",
    retryable: false,
  },
  USER_DENIED: {
    code: -32108,
    errorCode: "IMAGE_USER_DENIED",
    message: "user_denied",
    retryable: false,
  },
  NO_MODEL_AVAILABLE: {
    code: -32109,
    errorCode: "IMAGE_NO_MODEL_AVAILABLE",
    message: "no_model_available",
    retryable: false,
    aka: ["NO_MODEL_AVAILABLE"],
  },
  STORAGE_ERROR: {
    code: -32110,
    errorCode: "IMAGE_STORAGE_ERROR",
    message: "storage_error",
    retryable: true,
  },
  // Provider-capability codes (the guide names them without a prefix, L2926–L2929).
  EDIT_NOT_SUPPORTED: {
    code: -32311,
    errorCode: "IMAGE_EDIT_NOT_SUPPORTED",
    message: "edit_not_supported",
    retryable: false,
    aka: ["EDIT_NOT_SUPPORTED"],
  },
  MASK_UNSUPPORTED: {
    code: -32312,
    errorCode: "IMAGE_MASK_UNSUPPORTED",
    message: "mask_unsupported",
    retryable: false,
    aka: ["MASK_UNSUPPORTED"],
  },
  N_UNSUPPORTED: {
    code: -32313,
    errorCode: "IMAGE_N_UNSUPPORTED",
    message: "n_unsupported",
    retryable: false,
    aka: ["N_UNSUPPORTED"],
  },
  REFERENCE_FETCH_FAILED: {
    code: -32314,
    errorCode: "IMAGE_REFERENCE_FETCH_FAILED",
    message: "reference_fetch_failed",
    retryable: false,
    aka: ["REFERENCE_FETCH_FAILED", "IMAGE_ERR_REFERENCE_FETCH_FAILED"],
  },
});
