// A host service's error (an RpcError with the catalog's `data.errorCode`, e.g.
// `SAMPLING_QUOTA_EXCEEDED`) as the copilot endpoints answer it: the Nexus code a client branches
// on, the HTTP status that goes with it, and the catalog code and message kept in `detail`.
import { INVALID_PARAMS, RpcError } from "@anna-ai/jsonrpc";
import { type ErrorCode, NexusError } from "../core/errors.js";

const BY_SUFFIX: readonly [suffix: string, code: ErrorCode][] = [
  ["QUOTA_EXCEEDED", "quota_exceeded"],
  ["RATE_LIMITED", "rate_limited"],
  ["NOT_GRANTED", "permission_denied"],
  ["TOO_LARGE", "payload_too_large"],
  ["MIME_REJECTED", "unsupported_media_type"],
  ["NOT_FOUND", "not_found"],
  ["INVALID_REQUEST", "validation_failed"],
  ["INVALID_PARAMS", "validation_failed"],
  ["PURPOSE_REJECTED", "validation_failed"],
  ["TIMEOUT", "unavailable"],
];

export function serviceHttpError(err: unknown): unknown {
  if (!(err instanceof RpcError)) return err;
  const errorCode = err.errorCode ?? "";
  const code =
    BY_SUFFIX.find(([suffix]) => errorCode.endsWith(suffix))?.[1] ??
    (err.code === INVALID_PARAMS ? "validation_failed" : "upstream_error");
  const data =
    err.data !== null && typeof err.data === "object" ? (err.data as Record<string, unknown>) : {};
  return new NexusError(code, err.message, {
    cause: err,
    details: { ...data, error_code: errorCode || undefined, rpc_code: err.code },
  });
}

/** Runs a service call, turning its RpcError into the endpoint's NexusError. */
export async function callHostService<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw serviceHttpError(err);
  }
}
