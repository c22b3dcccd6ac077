// The one way host services and the router build wire errors (H12): a catalog entry, a message
// that says what to fix, and `data.errorCode`. Services throw these; the router passes them on
// unchanged.
import { RpcError } from "@anna-ai/jsonrpc";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";

export function catalogError(
  entry: CatalogEntry,
  message?: string,
  data?: Record<string, unknown>,
  options?: { cause?: unknown },
): RpcError {
  return new RpcError(
    entry.code,
    message ?? entry.message,
    { ...data, errorCode: entry.errorCode },
    options,
  );
}
