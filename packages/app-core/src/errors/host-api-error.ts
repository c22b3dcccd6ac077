// The one error the Host API answers with (A3): `{code, message, details}` with a string code from
// the Host API vocabulary (L6651–L6667, R100). Handlers throw it; the dispatcher turns anything
// else into `internal_error` without leaking the message.

import type { HostApiErrorCode } from "@anna-ai/app-schema/host-api";

// The catalog lives with the rest of the Host API contract in app-schema.
export { HOST_API_ERROR_CODES, type HostApiErrorCode } from "@anna-ai/app-schema/host-api";

/** The wire shape of an error inside `{id, ok: false, error}` (L6341). */
export interface HostApiErrorWire {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class HostApiError extends Error {
  readonly code: HostApiErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: HostApiErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "HostApiError";
    this.code = code;
    this.details = details;
  }

  toWire(): HostApiErrorWire {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isHostApiError(value: unknown): value is HostApiError {
  return value instanceof HostApiError;
}
