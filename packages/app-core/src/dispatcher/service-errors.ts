// Host services speak the reverse-RPC catalog (RpcError with `data.errorCode`, H12); the Host API
// speaks string codes (R100). One table maps the families' suffixes; the catalog code travels in
// `details.errorCode` so nothing is lost.
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors";
import type { HostServices } from "@anna-ai/executa-host";
import { RpcError } from "@anna-ai/jsonrpc";
import { HostApiError, type HostApiErrorCode } from "../errors/host-api-error.js";

const STORAGE_CODES: Readonly<Record<string, HostApiErrorCode>> = {
  NOT_FOUND: "not_found",
  PRECONDITION_FAILED: "precondition_failed",
  QUOTA_EXCEEDED: "quota_exceeded",
  VALUE_TOO_LARGE: "value_too_large",
  RATE_LIMITED: "rate_limited",
  INVALID_PATH: "invalid_path",
  INVALID_REQUEST: "invalid_arg",
  NOT_GRANTED: "permission_denied",
  UPSTREAM_ERROR: "internal_error",
};

const FACADE_SUFFIXES: readonly [string, HostApiErrorCode][] = [
  ["SESSION_NOT_FOUND", "APP_SESSION_NOT_FOUND"],
  ["NOT_GRANTED", "APP_NOT_GRANTED"],
  ["NOT_NEGOTIATED", "APP_NOT_GRANTED"],
  ["USER_DENIED", "APP_NOT_GRANTED"],
  ["TOOL_NOT_GRANTED", "APP_NOT_GRANTED"],
  ["QUOTA_EXCEEDED", "APP_QUOTA_EXCEEDED"],
  ["MAX_CALLS_EXCEEDED", "APP_QUOTA_EXCEEDED"],
  ["MAX_TOKENS_EXCEEDED", "APP_QUOTA_EXCEEDED"],
  ["MAX_IMAGES_EXCEEDED", "APP_QUOTA_EXCEEDED"],
  ["MAX_FILES_EXCEEDED", "APP_QUOTA_EXCEEDED"],
  ["INVALID_REQUEST", "APP_INVALID_REQUEST"],
  ["SUBMODE_MISMATCH", "APP_INVALID_REQUEST"],
];

/** JSON-RPC invalid params, sent by services that validate their own input. */
const INVALID_PARAMS = PROTOCOL_ERRORS.INVALID_PARAMS.code;

export function hostApiErrorFromService(error: unknown, what: string): HostApiError {
  if (error instanceof HostApiError) return error;
  if (error instanceof RpcError) {
    const data = (error.data ?? {}) as Record<string, unknown>;
    const errorCode = typeof data.errorCode === "string" ? data.errorCode : undefined;
    const details: Record<string, unknown> = { ...data, rpc_code: error.code };
    if (errorCode?.startsWith("STORAGE_") === true) {
      const code = STORAGE_CODES[errorCode.slice("STORAGE_".length)] ?? "internal_error";
      return new HostApiError(code, error.message, details, { cause: error });
    }
    if (errorCode !== undefined) {
      for (const [suffix, code] of FACADE_SUFFIXES) {
        if (errorCode.endsWith(`_${suffix}`)) {
          return new HostApiError(code, error.message, details, { cause: error });
        }
      }
      return new HostApiError("APP_PROVIDER_ERROR", error.message, details, { cause: error });
    }
    if (error.code === INVALID_PARAMS) {
      return new HostApiError("invalid_arg", error.message, details, { cause: error });
    }
    return new HostApiError("APP_PROVIDER_ERROR", error.message, details, { cause: error });
  }
  return new HostApiError("internal_error", `${what} failed`, undefined, { cause: error });
}

/** Runs a host-service call for a handler, mapping its failure to the Host API vocabulary. */
export async function callService<T>(
  ctx: { ns: string; method: string },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw hostApiErrorFromService(error, `${ctx.ns}.${ctx.method}`);
  }
}

/** The host service a handler needs, or `not_implemented` naming it when this host has none. */
export function requireService<K extends keyof HostServices>(
  ctx: { ns: string; method: string; core: { services: Partial<HostServices> } },
  name: K,
): NonNullable<HostServices[K]> {
  const found = ctx.core.services[name];
  if (found === undefined) {
    throw new HostApiError(
      "not_implemented",
      `${ctx.ns}.${ctx.method}: no ${name} service on this host`,
    );
  }
  return found as NonNullable<HostServices[K]>;
}
