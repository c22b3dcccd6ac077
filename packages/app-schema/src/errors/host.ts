import { defineFamily } from "./types.js";

/**
 * Conditions the host produces itself. Codes are shared on purpose: the spec fixes the numbers
 * (-32000 for timeouts and exits, -32602 for correlation failures) and the `errorCode` tells
 * them apart, so look these up by `errorCode`.
 */
export const HOST_ERRORS = defineFamily("host", {
  // H5: per-tool invoke timeout; the plugin then gets SIGTERM.
  TIMEOUT: { code: -32000, errorCode: "TIMEOUT", message: "timeout", retryable: false },
  // H6: the plugin exited with invokes pending; the host restarts it, so a retry may work.
  PROCESS_EXITED: {
    code: -32000,
    errorCode: "PROCESS_EXITED",
    message: "process_exited",
    retryable: true,
  },
  // T12: reverse RPC names an invoke that is unknown or already finished.
  UNKNOWN_INVOKE_CONTEXT: {
    code: -32602,
    errorCode: "UNKNOWN_INVOKE_CONTEXT",
    message: "unknown_invoke_context",
    retryable: false,
  },
  // T12: reverse RPC names no invoke while several are active; the host never guesses.
  MISSING_INVOKE_CONTEXT: {
    code: -32602,
    errorCode: "MISSING_INVOKE_CONTEXT",
    message: "missing_invoke_context",
    retryable: false,
  },
  // H2: a frame over the line cap. The request it carried is unreadable, hence -32600.
  FRAME_TOO_LARGE: {
    code: -32600,
    errorCode: "FRAME_TOO_LARGE",
    message: "frame_too_large",
    retryable: false,
  },
  PLUGIN_NOT_READY: {
    code: -32000,
    errorCode: "PLUGIN_NOT_READY",
    message: "plugin_not_ready",
    retryable: true,
  },
  // H6: restart budget spent; the plugin stays stopped until someone starts it again.
  PLUGIN_STOPPED: {
    code: -32000,
    errorCode: "PLUGIN_STOPPED",
    message: "plugin_stopped",
    retryable: false,
  },
});
