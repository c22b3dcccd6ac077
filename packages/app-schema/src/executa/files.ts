import { z } from "zod";
import { reverseCorrelationShape } from "./common.js";
import { StorageScopeSchema } from "./storage.js";

/**
 * APS objects `files/*` (T24, R46–R50). Same scopes as storage; omitted scope means `tool`
 * (H14, not the Reference's `app`, which plugin tokens never permit). Timestamps are ISO 8601
 * strings (Z26).
 */

export const FILES_PATH_MAX_CHARS = 1024;
export const FILES_OBJECT_MAX_BYTES = 256 * 1024 * 1024;
export const FILES_DOWNLOAD_TTL_DEFAULT_S = 300;
export const FILES_DOWNLOAD_TTL_MAX_S = 3600;

const PathSchema = z.string().min(1).max(FILES_PATH_MAX_CHARS);

export const FilesUploadBeginParamsSchema = z.looseObject({
  path: PathSchema,
  scope: StorageScopeSchema.nullish(),
  size_bytes: z.number().int().nonnegative().nullish(),
  /** Signed into the URL: the PUT must send the same `Content-Type`. */
  content_type: z.string().nullish(),
  ...reverseCorrelationShape,
});
export type FilesUploadBeginParams = z.infer<typeof FilesUploadBeginParamsSchema>;

export const FilesUploadBeginResultSchema = z.object({
  upload_id: z.string(),
  /** Plugins PUT the bytes here and expect 200/201 with an `ETag` header. */
  put_url: z.string(),
  /** The guide's name for the same URL (L2296). */
  presigned_url: z.string().optional(),
  headers: z.record(z.string(), z.string()),
  expires_at: z.string(),
});
export type FilesUploadBeginResult = z.infer<typeof FilesUploadBeginResultSchema>;

export const FilesUploadCompleteParamsSchema = z.looseObject({
  path: PathSchema,
  scope: StorageScopeSchema.nullish(),
  etag: z.string().nullish(),
  size_bytes: z.number().int().nonnegative().nullish(),
  content_type: z.string().nullish(),
  ...reverseCorrelationShape,
});
export type FilesUploadCompleteParams = z.infer<typeof FilesUploadCompleteParamsSchema>;

export const FilesObjectSchema = z.object({
  path: z.string(),
  size_bytes: z.number().int().nonnegative(),
  content_type: z.string(),
  updated_at: z.string(),
  etag: z.string().optional(),
});
export type FilesObject = z.infer<typeof FilesObjectSchema>;

export const FilesUploadCompleteResultSchema = z.object({
  path: z.string(),
  etag: z.string(),
  size_bytes: z.number().int().nonnegative(),
  content_type: z.string().optional(),
  updated_at: z.string().optional(),
});
export type FilesUploadCompleteResult = z.infer<typeof FilesUploadCompleteResultSchema>;

export const FilesDownloadUrlParamsSchema = z.looseObject({
  path: PathSchema,
  scope: StorageScopeSchema.nullish(),
  /** The SDK sends `expires_in`; the REST API reads `ttl`. Either is honoured, capped at 3600 s. */
  expires_in: z.number().positive().nullish(),
  ttl_seconds: z.number().positive().nullish(),
  ...reverseCorrelationShape,
});
export type FilesDownloadUrlParams = z.infer<typeof FilesDownloadUrlParamsSchema>;

export const FilesDownloadUrlResultSchema = z.object({
  get_url: z.string(),
  /** Same URL; some clients read `url` (real-world-plugins.md). */
  url: z.string(),
  expires_at: z.string(),
});
export type FilesDownloadUrlResult = z.infer<typeof FilesDownloadUrlResultSchema>;

export const FilesListParamsSchema = z.looseObject({
  scope: StorageScopeSchema.nullish(),
  prefix: z.string().max(FILES_PATH_MAX_CHARS).nullish(),
  cursor: z.string().nullish(),
  /** 1…1000, default 100; out of range is -32027, not clamped (R49). */
  limit: z.number().int().nullish(),
  ...reverseCorrelationShape,
});
export type FilesListParams = z.infer<typeof FilesListParamsSchema>;

export const FilesListResultSchema = z.object({
  items: z.array(FilesObjectSchema),
  next_cursor: z.string().nullable(),
});
export type FilesListResult = z.infer<typeof FilesListResultSchema>;

export const FilesDeleteParamsSchema = z.looseObject({
  path: PathSchema,
  scope: StorageScopeSchema.nullish(),
  ...reverseCorrelationShape,
});
export type FilesDeleteParams = z.infer<typeof FilesDeleteParamsSchema>;

export const FilesDeleteResultSchema = z.object({ deleted: z.boolean() });
export type FilesDeleteResult = z.infer<typeof FilesDeleteResultSchema>;
