// Host-produced wire errors. Every one is `-32000` with a string `data.errorCode` (H12) and a
// message that names the plugin, so a trace line alone says which process failed and why.

import { RpcError } from "@anna-ai/jsonrpc";

/** JSON-RPC "implementation-defined server error" (T9), used for every host-side failure. */
export const HOST_ERROR_CODE = -32000;

/**
 * The string codes this part produces. They mirror `HOST_ERRORS` in `@anna-ai/app-schema/errors`
 * (being written in parallel); kept local so this module builds on its own.
 */
export const PROCESS_ERROR_CODES = Object.freeze({
  TIMEOUT: "TIMEOUT",
  PROCESS_EXITED: "PROCESS_EXITED",
  PLUGIN_STOPPED: "PLUGIN_STOPPED",
  FRAME_TOO_LARGE: "FRAME_TOO_LARGE",
  INVALID_FRAME: "INVALID_FRAME",
  ABORTED: "ABORTED",
  SPAWN_FAILED: "SPAWN_FAILED",
  INVALID_MANIFEST: "INVALID_MANIFEST",
  INTERNAL_ERROR: "INTERNAL_ERROR",
} as const);

export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[keyof typeof PROCESS_ERROR_CODES];

export function hostError(
  errorCode: ProcessErrorCode,
  message: string,
  data: Record<string, unknown> = {},
  cause?: unknown,
): RpcError {
  return new RpcError(
    HOST_ERROR_CODE,
    message,
    { ...data, errorCode },
    cause === undefined ? undefined : { cause },
  );
}

/** Misuse of the host API by its caller (unknown plugin, closed host); never sent on the wire. */
export class ExecutaHostError extends Error {
  readonly code: "NOT_REGISTERED" | "HOST_CLOSED";

  constructor(
    code: "NOT_REGISTERED" | "HOST_CLOSED",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExecutaHostError";
    this.code = code;
  }
}
