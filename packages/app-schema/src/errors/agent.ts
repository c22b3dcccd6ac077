import { defineFamily } from "./types.js";

/**
 * `agent/session.*` and `agent/complete`. Names follow the Reference summary (R38, L8722ff),
 * except -32047: the Reference's own harness reports the 4096-frame cap as
 * `-32047 agent_run_too_large` (R167, L11617), as does the guide (L2096–L2106), so -32047 is
 * RUN_TOO_LARGE and upstream throttling folds into -32045 QUOTA_EXCEEDED
 * (D-schema-2).
 */
export const AGENT_ERRORS = defineFamily("agent", {
  NOT_GRANTED: {
    code: -32041,
    errorCode: "AGENT_NOT_GRANTED",
    message: "not_granted",
    retryable: false,
    alias: "agent_not_granted",
  },
  SESSION_NOT_FOUND: {
    code: -32042,
    errorCode: "AGENT_SESSION_NOT_FOUND",
    message: "session_not_found",
    retryable: false,
    aka: ["AGENT_UNKNOWN_SESSION"],
  },
  INVALID_REQUEST: {
    code: -32043,
    errorCode: "AGENT_INVALID_REQUEST",
    message: "invalid_request",
    retryable: false,
  },
  SUBMODE_MISMATCH: {
    code: -32044,
    errorCode: "AGENT_SUBMODE_MISMATCH",
    message: "submode_mismatch",
    retryable: false,
    aka: ["AGENT_INVALID_SUBMODE"],
  },
  QUOTA_EXCEEDED: {
    code: -32045,
    errorCode: "AGENT_QUOTA_EXCEEDED",
    message: "quota_exceeded",
    retryable: false,
    aka: ["AGENT_RATE_LIMITED"],
  },
  PROVIDER_ERROR: {
    code: -32046,
    errorCode: "AGENT_PROVIDER_ERROR",
    message: "provider_error",
    retryable: true,
    aka: ["AGENT_NEXUS_ERROR"],
  },
  RUN_TOO_LARGE: {
    code: -32047,
    errorCode: "AGENT_RUN_TOO_LARGE",
    message: "run_too_large",
    retryable: false,
    alias: "agent_run_too_large",
  },
  TOOL_NOT_GRANTED: {
    code: -32048,
    errorCode: "AGENT_TOOL_NOT_GRANTED",
    message: "tool_not_granted",
    retryable: false,
  },
});
