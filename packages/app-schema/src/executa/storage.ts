import { z } from "zod";
import { reverseCorrelationShape } from "./common.js";

/** APS key-value `storage/*` (T23, R42–R45). */

/** `app` is only granted to invokes coming from an app whose grant includes it (H14). */
export const StorageScopeSchema = z.enum(["user", "tool", "app"]);
export type StorageScope = z.infer<typeof StorageScopeSchema>;

/** Omitted scope means `tool` (H14). */
export const DEFAULT_STORAGE_SCOPE: StorageScope = "tool";
export const STORAGE_KEY_MAX_CHARS = 1024;
export const STORAGE_TTL_MAX_S = 31_536_000;
export const STORAGE_LIST_DEFAULT_LIMIT = 100;
export const STORAGE_LIST_MAX_LIMIT = 1000;
export const STORAGE_MAX_TAGS = 32;

export function resolveStorageScope(scope: StorageScope | null | undefined): StorageScope {
  return scope ?? DEFAULT_STORAGE_SCOPE;
}

/** `storage/list` limits are clamped, not rejected (R45). */
export function clampStorageListLimit(limit: number | null | undefined): number {
  if (typeof limit !== "number" || !Number.isFinite(limit)) return STORAGE_LIST_DEFAULT_LIMIT;
  return Math.max(1, Math.min(Math.trunc(limit), STORAGE_LIST_MAX_LIMIT));
}

const KeySchema = z.string().min(1).max(STORAGE_KEY_MAX_CHARS);
/** An opaque etag (formats differ across the spec, Z15). */
const EtagSchema = z.string();

export const StorageGetParamsSchema = z.looseObject({
  key: KeySchema,
  scope: StorageScopeSchema.nullish(),
  ...reverseCorrelationShape,
});
export type StorageGetParams = z.infer<typeof StorageGetParamsSchema>;

/** A miss is `{value: null, exists: false, etag: null}`, never an error; `exists` always present. */
export const StorageGetResultSchema = z.object({
  value: z.unknown(),
  exists: z.boolean(),
  etag: EtagSchema.nullable(),
});
export type StorageGetResult = z.infer<typeof StorageGetResultSchema>;

export const StorageSetParamsSchema = z.looseObject({
  key: KeySchema,
  value: z.unknown(),
  scope: StorageScopeSchema.nullish(),
  /** Previous etag for optimistic concurrency; `null`/absent writes unconditionally. */
  if_match: EtagSchema.nullish(),
  ttl_seconds: z.number().int().min(1).max(STORAGE_TTL_MAX_S).nullish(),
  tags: z.array(z.string()).max(STORAGE_MAX_TAGS).nullish(),
  ...reverseCorrelationShape,
});
export type StorageSetParams = z.infer<typeof StorageSetParamsSchema>;

export const StorageSetResultSchema = z.object({
  /** Plugins require it. */
  etag: EtagSchema,
  generation: z.number().int().nonnegative(),
  size_bytes: z.number().int().nonnegative(),
});
export type StorageSetResult = z.infer<typeof StorageSetResultSchema>;

export const StorageDeleteParamsSchema = z.looseObject({
  key: KeySchema,
  scope: StorageScopeSchema.nullish(),
  if_match: EtagSchema.nullish(),
  ...reverseCorrelationShape,
});
export type StorageDeleteParams = z.infer<typeof StorageDeleteParamsSchema>;

export const StorageDeleteResultSchema = z.object({ deleted: z.boolean() });
export type StorageDeleteResult = z.infer<typeof StorageDeleteResultSchema>;

export const StorageListParamsSchema = z.looseObject({
  scope: StorageScopeSchema.nullish(),
  prefix: z.string().max(STORAGE_KEY_MAX_CHARS).nullish(),
  cursor: z.string().nullish(),
  /** Clamped to 1…1000 (`clampStorageListLimit`). */
  limit: z.number().nullish(),
  ...reverseCorrelationShape,
});
export type StorageListParams = z.infer<typeof StorageListParamsSchema>;

/** Metadata heads, no values (R45). */
export const StorageListItemSchema = z.object({
  key: z.string(),
  etag: EtagSchema.optional(),
  size_bytes: z.number().int().nonnegative().optional(),
  updated_at: z.string().optional(),
  expires_at: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
});
export type StorageListItem = z.infer<typeof StorageListItemSchema>;

export const StorageListResultSchema = z.object({
  items: z.array(StorageListItemSchema),
  next_cursor: z.string().nullable(),
});
export type StorageListResult = z.infer<typeof StorageListResultSchema>;
