// The limits of every storage and files store (memory now, SQL next), with their spec sources.
// Override them through `limits` (tests, small dev machines); grants may lower the quota, never
// raise it.
import {
  FILES_DOWNLOAD_TTL_DEFAULT_S,
  FILES_DOWNLOAD_TTL_MAX_S,
  FILES_OBJECT_MAX_BYTES,
} from "@anna-ai/app-schema";

/** One KV value, canonical UTF-8 JSON (R43: 256 KB; the overview's 64 KB is advisory, Z5). */
export const KV_VALUE_MAX_BYTES = 256 * 1024;
/** Per-user bytes across KV and files, every scope (R40, T25: 5 GB) → -32024. */
export const STORAGE_QUOTA_BYTES = 5 * 1024 * 1024 * 1024;
/** `files/upload_begin` content_type (`_FilesInitBody.content_type`, max 120; R46) → -32027. */
export const FILES_CONTENT_TYPE_MAX_CHARS = 120;
/** Lifetime of the presigned PUT URL (`DEFAULT_PRESIGN_PUT_EXPIRY`, T24/T28). */
export const FILES_PUT_URL_TTL_S = 300;
/** Soft quota reservation of `upload_begin`; unfinished uploads are reaped after it (R46). */
export const FILES_RESERVATION_TTL_S = 600;
/** `files/list` page size (R49). */
export const FILES_LIST_DEFAULT_LIMIT = 100;
export const FILES_LIST_MAX_LIMIT = 1000;
export { FILES_DOWNLOAD_TTL_DEFAULT_S, FILES_DOWNLOAD_TTL_MAX_S, FILES_OBJECT_MAX_BYTES };

/**
 * `metadata` doubles as the reverse-call correlation object (T12): these keys are the host's,
 * not the caller's, and are dropped before metadata is stored (app-schema `reverseCorrelationShape`).
 */
export const CORRELATION_METADATA_KEYS: readonly string[] = [
  "executa_invoke_id",
  "invoke_id",
  "tool",
];

/** The caller's own metadata: `value` without the correlation keys. */
export function ownMetadata(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).filter(([k]) => !CORRELATION_METADATA_KEYS.includes(k)),
  );
}

export interface StorageLimits {
  kvValueMaxBytes: number;
  quotaBytes: number;
  /**
   * KV rows per user across scopes. R133 says `storage/set` charges an `entry_count` quota but
   * the spec names no limit, so the default is none (Infinity); a store counts entries anyway.
   */
  quotaEntries: number;
  objectMaxBytes: number;
  putUrlTtlSeconds: number;
  reservationTtlSeconds: number;
}

export const DEFAULT_STORAGE_LIMITS: Readonly<StorageLimits> = Object.freeze({
  kvValueMaxBytes: KV_VALUE_MAX_BYTES,
  quotaBytes: STORAGE_QUOTA_BYTES,
  quotaEntries: Number.POSITIVE_INFINITY,
  objectMaxBytes: FILES_OBJECT_MAX_BYTES,
  putUrlTtlSeconds: FILES_PUT_URL_TTL_S,
  reservationTtlSeconds: FILES_RESERVATION_TTL_S,
});
