// A GatewayError as the wire error of a reverse-RPC family (H12): quota → QUOTA_EXCEEDED, time
// budget or cancellation → TIMEOUT, everything from the provider → PROVIDER_ERROR with the
// provider, its HTTP status and `retry-after` in `data` so a plugin can back off sensibly.
import { catalogError } from "@anna-ai/executa-host";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import { GatewayError } from "../gateway/gateway-error.js";

export interface FamilyErrorCodes {
  QUOTA_EXCEEDED: CatalogEntry;
  PROVIDER_ERROR: CatalogEntry;
  TIMEOUT: CatalogEntry;
}

/** An Error that already is a wire error (an RpcError from a catalog helper) passes unchanged. */
function isWireError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const data = (error as { data?: unknown }).data;
  return (
    typeof (error as { code?: unknown }).code === "number" &&
    data !== null &&
    typeof data === "object" &&
    typeof (data as { errorCode?: unknown }).errorCode === "string"
  );
}

export function familyError(error: unknown, codes: FamilyErrorCodes): Error {
  if (isWireError(error)) return error as Error;
  if (!(error instanceof GatewayError)) {
    return catalogError(codes.PROVIDER_ERROR, `model call failed: ${String(error)}`, {
      reason: "internal",
    });
  }
  const data: Record<string, unknown> = { reason: error.code, provider: error.provider };
  if (error.status !== undefined) data["status"] = error.status;
  if (error.retryAfterMs !== undefined) data["retryAfterMs"] = error.retryAfterMs;
  if (error.attempts > 1) data["attempts"] = error.attempts;
  switch (error.code) {
    case "quota_exceeded":
      return catalogError(codes.QUOTA_EXCEEDED, error.message, data);
    case "timeout":
    case "aborted":
      return catalogError(codes.TIMEOUT, error.message, data);
    default:
      return catalogError(codes.PROVIDER_ERROR, error.message, data);
  }
}
