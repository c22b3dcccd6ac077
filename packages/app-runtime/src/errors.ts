/**
 * The one error an SDK call rejects with (ruling A3): the dispatcher's `{code, message, details}`
 * as an `Error`. Codes are the Host API's string codes (`permission_denied`, `invalid_arg`,
 * `tool_failed`, `APP_NOT_GRANTED`, …) plus the SDK-local ones below. Bundles branch on `code`.
 */
export class HostApiError extends Error {
  readonly code: string;
  readonly details: unknown;

  constructor(code: string, message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HostApiError";
    this.code = code;
    this.details = details;
  }

  /** The wire shape, for logs and recordings. */
  toJSON(): { code: string; message: string; details?: unknown } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** The name the LLM page uses (L6975); the same class, so `instanceof` works with either. */
export const HostRpcError = HostApiError;
export type HostRpcError = HostApiError;

/** Codes the SDK produces itself, never the dispatcher. */
export const SDK_ERROR_CODES = Object.freeze({
  /** No answer within the call's timeout. */
  TIMEOUT: "timeout",
  /** `close()` was called, or the bridge was torn down, while the call was pending. */
  CLOSED: "closed",
  /** No host page to talk to: not in an iframe, no `wid`/`t`, or no host origin. */
  NOT_CONNECTED: "not_connected",
  /** The host answered with something that is not a response envelope. */
  BAD_RESPONSE: "bad_response",
  /** `tools.invoke`: the plugin answered `success: false` (ruling A4). */
  TOOL_FAILED: "tool_failed",
  /** Caller-side argument problems caught before anything is sent. */
  INVALID_ARG: "invalid_arg",
  /** `invokeAsyncAwait` gave up on its own wall clock; the job may still run. */
  WAIT_TIMEOUT: "wait_timeout",
  CANCELLED: "cancelled",
});

/** A wire error object (`{code, message, details?}`), read liberally, as a `HostApiError`. */
export function hostApiErrorFromWire(error: unknown): HostApiError {
  if (typeof error === "object" && error !== null) {
    const record = error as Record<string, unknown>;
    const code =
      typeof record["code"] === "string"
        ? record["code"]
        : typeof record["name"] === "string"
          ? record["name"]
          : typeof record["code"] === "number"
            ? String(record["code"])
            : "internal_error";
    const message = typeof record["message"] === "string" ? record["message"] : code;
    return new HostApiError(code, message, record["details"] ?? record["data"]);
  }
  if (typeof error === "string") return new HostApiError(error, error);
  return new HostApiError(
    "internal_error",
    "the host answered with an error of unknown shape",
    error,
  );
}
