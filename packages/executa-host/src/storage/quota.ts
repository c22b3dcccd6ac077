// The quota rules every store applies (R40: one per-user quota across scopes, KV and files; R133:
// `storage/set` also charges an entry count). A store keeps its own ledger (a Map in memory, a
// row per user in SQL) and asks these functions whether a change fits, so a refusal has the same
// code, message and data whatever the backend.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../services/service-error.js";
import type { RpcError } from "@anna-ai/jsonrpc";

/** The bytes a user holds now: committed, and reserved by unfinished uploads. */
export interface QuotaUsage {
  usedBytes: number;
  reservedBytes: number;
}

/** The user's limit: the host limit, lowered by the grant's when it sets one (never raised). */
export function effectiveQuota(limit: number, grantQuota: number | undefined): number {
  if (grantQuota === undefined || !Number.isFinite(grantQuota) || grantQuota < 0) return limit;
  return Math.min(limit, Math.floor(grantQuota));
}

/**
 * Throws -32024 when `addBytes` more do not fit next to the user's committed and reserved
 * bytes. A zero or negative change always fits (deletes and shrinking writes never fail).
 */
export function checkQuotaBytes(usage: QuotaUsage, addBytes: number, limitBytes: number): void {
  if (addBytes <= 0) return;
  if (usage.usedBytes + usage.reservedBytes + addBytes > limitBytes) {
    throw quotaBytesExceeded(usage, addBytes, limitBytes);
  }
}

/** Throws -32024 when `addEntries` more KV rows do not fit under `limitEntries`. */
export function checkQuotaEntries(entries: number, addEntries: number, limitEntries: number): void {
  if (addEntries <= 0) return;
  if (entries + addEntries > limitEntries) {
    throw catalogError(
      STORAGE_ERRORS.QUOTA_EXCEEDED,
      `storage quota exceeded: ${entries} keys of ${limitEntries}; this write adds ${addEntries} more. Delete keys to free entries`,
      { entries, limitEntries, requestedEntries: addEntries },
    );
  }
}

export function quotaBytesExceeded(
  usage: QuotaUsage,
  addBytes: number,
  limitBytes: number,
): RpcError {
  const { usedBytes, reservedBytes } = usage;
  return catalogError(
    STORAGE_ERRORS.QUOTA_EXCEEDED,
    `storage quota exceeded: ${usedBytes} bytes used and ${reservedBytes} reserved of ${limitBytes}; this write needs ${addBytes} more. Delete keys or files to free space`,
    { usedBytes, reservedBytes, limitBytes, requestedBytes: addBytes },
  );
}
