import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { localError } from "./channel.js";
import {
  DEFAULT_SCOPE,
  HostClient,
  compact,
  type CallControl,
  type StorageScope,
} from "./host-client.js";
import { STORAGE_TIMEOUT_MS } from "./storage.js";

/** Budget for the direct PUT of `files.put` (presigned URLs live 300 s, T24). */
export const FILES_PUT_TIMEOUT_MS = 120_000;

export interface FilesScopeOption extends CallControl {
  /** Defaults to "tool": plugins may not use "app", whatever the REST default is (R40, H14). */
  scope?: StorageScope;
}

export interface UploadBeginOptions extends FilesScopeOption {
  path: string;
  contentType: string;
  sizeBytes: number;
  metadata?: Record<string, string>;
}

export interface UploadBeginResult {
  /** Where to PUT the bytes. Older hosts call it `presigned_url`. */
  put_url?: string;
  presigned_url?: string;
  headers?: Record<string, string>;
  upload_id?: string;
  expires_at?: string | number;
  [field: string]: unknown;
}

export interface UploadCompleteOptions extends FilesScopeOption {
  path: string;
  etag?: string;
  sizeBytes?: number;
  contentType?: string;
}

export interface FileEntry {
  path: string;
  etag?: string;
  size_bytes?: number;
  content_type?: string;
  updated_at?: string;
  [field: string]: unknown;
}

export interface DownloadUrlResult {
  /** Resolved from `url` or `get_url`, whichever the host sent. */
  url: string;
  expires_at?: string | number;
  [field: string]: unknown;
}

/** `files/*` (T24): the APS object store, with `put` doing begin → PUT → complete. */
export class FilesClient extends HostClient {
  protected readonly family = "files";
  protected readonly defaultTimeoutMs = STORAGE_TIMEOUT_MS;

  uploadBegin(options: UploadBeginOptions): Promise<UploadBeginResult> {
    return this.call(
      "files/upload_begin",
      compact({
        path: options.path,
        scope: options.scope ?? DEFAULT_SCOPE,
        content_type: options.contentType,
        size_bytes: options.sizeBytes,
        metadata: options.metadata,
      }),
      options,
    );
  }

  uploadComplete(options: UploadCompleteOptions): Promise<FileEntry> {
    return this.call(
      "files/upload_complete",
      compact({
        path: options.path,
        scope: options.scope ?? DEFAULT_SCOPE,
        etag: options.etag,
        size_bytes: options.sizeBytes,
        content_type: options.contentType,
      }),
      options,
    );
  }

  async downloadUrl(
    path: string,
    options: FilesScopeOption & { ttlSeconds?: number } = {},
  ): Promise<DownloadUrlResult> {
    const result = await this.call<Record<string, unknown>>(
      "files/download_url",
      compact({ path, scope: options.scope ?? DEFAULT_SCOPE, ttl_seconds: options.ttlSeconds }),
      options,
    );
    const url =
      typeof result.url === "string"
        ? result.url
        : typeof result.get_url === "string"
          ? result.get_url
          : "";
    return { ...result, url };
  }

  list(
    options: FilesScopeOption & { prefix?: string; cursor?: string | null; limit?: number } = {},
  ): Promise<{ items: FileEntry[]; next_cursor: string | null }> {
    return this.call(
      "files/list",
      compact({
        scope: options.scope ?? DEFAULT_SCOPE,
        prefix: options.prefix,
        cursor: options.cursor ?? undefined,
        limit: options.limit,
      }),
      options,
    );
  }

  delete(path: string, options: FilesScopeOption = {}): Promise<{ deleted: boolean }> {
    return this.call("files/delete", { path, scope: options.scope ?? DEFAULT_SCOPE }, options);
  }

  /**
   * Stores `bytes` at `path`: `upload_begin`, an HTTP PUT of the bytes to the presigned URL
   * with the Content-Type it was signed for, then `upload_complete` with the PUT's ETag.
   * Skipping the last step leaves the object to be garbage-collected (T24).
   */
  async put(
    path: string,
    bytes: Uint8Array | string,
    contentType: string,
    options: FilesScopeOption & { metadata?: Record<string, string> } = {},
  ): Promise<FileEntry> {
    const body = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
    const begin = await this.uploadBegin({
      ...options,
      path,
      contentType,
      sizeBytes: body.byteLength,
    });
    const url = begin.put_url ?? begin.presigned_url;
    if (typeof url !== "string" || url === "") {
      throw localError(
        "files",
        "files/upload_begin",
        STORAGE_ERRORS.UPSTREAM_ERROR,
        "upload_begin returned no put_url",
      );
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method: "PUT",
        headers: { "Content-Type": contentType, ...begin.headers },
        body,
        signal: AbortSignal.any([
          AbortSignal.timeout(options.timeoutMs ?? FILES_PUT_TIMEOUT_MS),
          ...(options.signal ? [options.signal] : []),
        ]),
      });
    } catch (error) {
      const message = `PUT ${path} failed: ${String(error)}`;
      throw localError("files", "files/put", STORAGE_ERRORS.UPSTREAM_ERROR, message, error);
    }
    if (!response.ok) {
      throw localError(
        "files",
        "files/put",
        STORAGE_ERRORS.UPSTREAM_ERROR,
        `PUT ${path} failed: HTTP ${response.status}`,
      );
    }
    await response.arrayBuffer();
    const etag = response.headers.get("etag") ?? undefined;
    return this.uploadComplete({ ...options, path, etag, sizeBytes: body.byteLength, contentType });
  }
}
