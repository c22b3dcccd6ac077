import { defineFamily } from "./types.js";

/** JSON-RPC 2.0 standard codes, plus -32000 for a plugin's generic failure (T9, R24). */
export const PROTOCOL_ERRORS = defineFamily("protocol", {
  PARSE_ERROR: { code: -32700, errorCode: "PARSE_ERROR", message: "Parse error", retryable: false },
  INVALID_REQUEST: {
    code: -32600,
    errorCode: "INVALID_REQUEST",
    message: "Invalid Request",
    retryable: false,
  },
  // Plugins use -32601 for unknown methods and unknown tools alike (real-world-plugins.md).
  METHOD_NOT_FOUND: {
    code: -32601,
    errorCode: "METHOD_NOT_FOUND",
    message: "Method not found",
    retryable: false,
  },
  INVALID_PARAMS: {
    code: -32602,
    errorCode: "INVALID_PARAMS",
    message: "Invalid params",
    retryable: false,
  },
  INTERNAL_ERROR: {
    code: -32603,
    errorCode: "INTERNAL_ERROR",
    message: "Internal error",
    retryable: false,
  },
  SERVER_ERROR: {
    code: -32000,
    errorCode: "SERVER_ERROR",
    message: "Server error",
    retryable: false,
  },
});
