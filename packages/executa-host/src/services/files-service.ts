// APS objects `files/*` (T24, R46–R50). Same scope rules as storage; the router defaults an
// omitted scope to `tool` (decisions.md, "Router": the Reference's `app` default always fails
// for plugins).
import type { StorageGrant, StorageScope } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

interface Scoped {
  scope: StorageScope;
  [key: string]: unknown;
}

export interface FilesUploadBeginParams extends Scoped {
  path: string;
  size_bytes?: number;
  content_type?: string;
  metadata?: Record<string, string>;
}
export interface FilesUploadBeginResult {
  upload_id?: string;
  /** Required by plugins: they PUT the bytes there and expect 200/201 with an ETag. */
  put_url: string;
  headers: Record<string, string>;
  expires_at: string | number;
  [key: string]: unknown;
}

export interface FilesUploadCompleteParams extends Scoped {
  path: string;
  etag?: string;
  size_bytes?: number;
  content_type?: string;
}
export interface FilesUploadCompleteResult {
  path: string;
  etag: string;
  size_bytes: number;
  [key: string]: unknown;
}

export interface FilesDownloadUrlParams extends Scoped {
  path: string;
  expires_in?: number;
  ttl_seconds?: number;
}
export interface FilesDownloadUrlResult {
  get_url: string;
  /** Some clients read `url`: return both. */
  url?: string;
  expires_at: string | number;
  [key: string]: unknown;
}

export interface FilesListParams extends Scoped {
  prefix?: string;
  cursor?: string | null;
  limit?: number;
}
export interface FilesListResult {
  items: { path: string; size_bytes: number; content_type?: string; updated_at?: string }[];
  next_cursor: string | null;
  [key: string]: unknown;
}

export interface FilesDeleteParams extends Scoped {
  path: string;
}
export interface FilesDeleteResult {
  deleted: boolean;
  [key: string]: unknown;
}

export interface FilesService {
  uploadBegin(
    params: FilesUploadBeginParams,
    ctx: ServiceContext<StorageGrant>,
  ): Promise<FilesUploadBeginResult>;
  uploadComplete(
    params: FilesUploadCompleteParams,
    ctx: ServiceContext<StorageGrant>,
  ): Promise<FilesUploadCompleteResult>;
  downloadUrl(
    params: FilesDownloadUrlParams,
    ctx: ServiceContext<StorageGrant>,
  ): Promise<FilesDownloadUrlResult>;
  list(params: FilesListParams, ctx: ServiceContext<StorageGrant>): Promise<FilesListResult>;
  delete(params: FilesDeleteParams, ctx: ServiceContext<StorageGrant>): Promise<FilesDeleteResult>;
}
