// Host-produced wire errors. Each carries a string `data.errorCode` (H12) and a message that
// names the plugin, so a trace line alone says which process failed and why. Numbers come from
// the catalog in @anna-ai/app-schema/errors where it has the condition.

import { HOST_ERRORS, PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";

/** JSON-RPC "implementation-defined server error" (T9), for conditions outside the catalog. */
export const HOST_ERROR_CODE = PROTOCOL_ERRORS.SERVER_ERROR.code;

/**
 * The string codes this part produces. The first four are catalog entries (`HOST_ERRORS`); the
 * rest are local to process supervision and not yet in the catalog.
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

const CATALOG_NUMBERS: Partial<Record<ProcessErrorCode, number>> = {
  TIMEOUT: HOST_ERRORS.TIMEOUT.code,
  PROCESS_EXITED: HOST_ERRORS.PROCESS_EXITED.code,
  PLUGIN_STOPPED: HOST_ERRORS.PLUGIN_STOPPED.code,
  FRAME_TOO_LARGE: HOST_ERRORS.FRAME_TOO_LARGE.code,
};

export function hostError(
  errorCode: ProcessErrorCode,
  message: string,
  data: Record<string, unknown> = {},
  cause?: unknown,
): RpcError {
  return new RpcError(
    CATALOG_NUMBERS[errorCode] ?? HOST_ERROR_CODE,
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
