import { defineFamily } from "./types.js";

/** `credentials/listAccounts|getToken` (L9706, R69). -32064 is the SDK-local await timeout. */
export const CREDENTIALS_ERRORS = defineFamily("credentials", {
  NOT_GRANTED: {
    code: -32061,
    errorCode: "CREDENTIALS_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
  },
  INVALID_REQUEST: {
    code: -32062,
    errorCode: "CREDENTIALS_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  UPSTREAM: {
    code: -32063,
    errorCode: "CREDENTIALS_UPSTREAM",
    message: "upstream",
    retryable: true,
  },
  TIMEOUT: { code: -32064, errorCode: "CREDENTIALS_TIMEOUT", message: "timeout", retryable: true },
});
