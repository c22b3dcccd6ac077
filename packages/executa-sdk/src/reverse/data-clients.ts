// Clients for the data families: the APS key/value store (T23), APS objects (T24) and host
// upload (T28). One file keeps a plugin's import graph small (spawn time and idle memory are
// benchmarked).

import {
  DEFAULT_SCOPE,
  HostClient,
  compact,
  localError,
  type CallControl,
  type StorageScope,
} from "./channel.js";

// ---- storage/* -------------------------------------------------------------------------------

/** Per-call budget for APS calls; the host's own hop to Nexus is 15 s (T24). */
export const STORAGE_TIMEOUT_MS = 60_000;

export interface ScopeOption extends CallControl {
  /** Defaults to "tool" (H14). Always sent: client and host defaults differ (T22). */
  scope?: StorageScope;
}

export interface StorageGetResult<T = unknown> {
  value: T | null;
  exists: boolean;
  etag: string | null;
}

export interface StorageSetOptions extends ScopeOption {
  /** Previous etag for optimistic concurrency; a mismatch fails with -32023. */
  ifMatch?: string | null;
  ttlSeconds?: number;
  metadata?: Record<string, string>;
  tags?: string[];
}

export interface StorageSetResult {
  etag: string;
  size_bytes?: number;
  generation?: number;
}

export interface StorageListOptions extends ScopeOption {
  prefix?: string;
  cursor?: string | null;
  limit?: number;
}

export interface StorageListResult {
  items: {
    key: string;
    etag?: string;
    size_bytes?: number;
    updated_at?: string;
    [field: string]: unknown;
  }[];
  next_cursor: string | null;
}

/** `storage/*` (T23): the APS key/value store. */
export class StorageClient extends HostClient {
  protected readonly family = "storage";
  protected readonly defaultTimeoutMs = STORAGE_TIMEOUT_MS;

  async get<T = unknown>(key: string, options: ScopeOption = {}): Promise<StorageGetResult<T>> {
    const result = await this.call<Partial<StorageGetResult<T>>>(
      "storage/get",
      { key, scope: options.scope ?? DEFAULT_SCOPE },
      options,
    );
    // Hosts that forward a bare miss still leave `exists` meaningful (pitfall 11).
    return {
      value: result.value ?? null,
      exists: result.exists ?? (result.value !== undefined && result.value !== null),
      etag: result.etag ?? null,
    };
  }

  set(key: string, value: unknown, options: StorageSetOptions = {}): Promise<StorageSetResult> {
    return this.call(
      "storage/set",
      compact({
        key,
        value,
        scope: options.scope ?? DEFAULT_SCOPE,
        if_match: options.ifMatch ?? undefined,
        ttl_seconds: options.ttlSeconds,
        metadata: options.metadata,
        tags: options.tags,
      }),
      options,
    );
  }

  delete(
    key: string,
    options: ScopeOption & { ifMatch?: string } = {},
  ): Promise<{ deleted: boolean }> {
    return this.call(
      "storage/delete",
      compact({ key, scope: options.scope ?? DEFAULT_SCOPE, if_match: options.ifMatch }),
      options,
    );
  }

  list(options: StorageListOptions = {}): Promise<StorageListResult> {
    return this.call(
      "storage/list",
      compact({
        scope: options.scope ?? DEFAULT_SCOPE,
        prefix: options.prefix ?? "",
        cursor: options.cursor ?? undefined,
        limit: options.limit,
      }),
      options,
    );
  }
}

// ---- files/* ---------------------------------------------------------------------------------

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
      throw await localError(
        "files",
        "files/upload_begin",
        (c) => c.STORAGE_ERRORS.UPSTREAM_ERROR,
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
      throw await localError(
        "files",
        "files/put",
        (c) => c.STORAGE_ERRORS.UPSTREAM_ERROR,
        message,
        error,
      );
    }
    if (!response.ok) {
      throw await localError(
        "files",
        "files/put",
        (c) => c.STORAGE_ERRORS.UPSTREAM_ERROR,
        `PUT ${path} failed: HTTP ${response.status}`,
      );
    }
    await response.arrayBuffer();
    const etag = response.headers.get("etag") ?? undefined;
    return this.uploadComplete({ ...options, path, etag, sizeBytes: body.byteLength, contentType });
  }
}

// ---- host/uploadFile -------------------------------------------------------------------------

/** SDK default per call (R62). */
export const UPLOAD_TIMEOUT_MS = 120_000;
/** Decoded inline cap (`INLINE_MAX_BYTES`, T28); the SDK checks it before sending (R62). */
export const INLINE_MAX_BYTES = 8 * 1024 * 1024;

export type UploadPurpose = "image_input" | "image_reference" | "user_artifact";

/** Returned by inline and confirm; both canonical and legacy names are present (T28). */
export interface UploadEnvelope {
  r2_key: string;
  download_url: string;
  url?: string;
  mime_type?: string;
  size_bytes: number;
  bytes?: number;
  expires_at: string;
  expires_in?: number;
  _meta?: { mode?: string };
  [field: string]: unknown;
}

export interface NegotiateResult {
  r2_key: string;
  put_url: string;
  headers?: Record<string, string>;
  expires_in?: number;
  expires_at?: string;
  [field: string]: unknown;
}

export interface InlineOptions extends CallControl {
  filename: string;
  mimeType: string;
  content: Uint8Array | string;
  purpose?: UploadPurpose;
  metadata?: Record<string, unknown>;
}

export interface NegotiateOptions extends CallControl {
  filename: string;
  mimeType: string;
  sizeBytes: number;
  purpose?: UploadPurpose;
}

function toBytes(content: Uint8Array | string): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

/** `host/uploadFile` (T28): hand bytes to the host and get a transient download URL. */
export class HostUploadClient extends HostClient {
  protected readonly family = "upload";
  protected readonly defaultTimeoutMs = UPLOAD_TIMEOUT_MS;
  protected override readonly sendsClientTimeout = true;

  /** Mode `inline`: the bytes travel base64 in the frame (large ones via file transport). */
  async inline(options: InlineOptions): Promise<UploadEnvelope> {
    const bytes = toBytes(options.content);
    if (bytes.byteLength > INLINE_MAX_BYTES) {
      const message = `inline upload of ${bytes.byteLength} bytes exceeds ${INLINE_MAX_BYTES}; use negotiate/confirm`;
      throw await localError(
        "upload",
        "host/uploadFile",
        (c) => c.UPLOAD_ERRORS.TOO_LARGE,
        message,
      );
    }
    const content_b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
      "base64",
    );
    return this.call(
      "host/uploadFile",
      compact({
        mode: "inline",
        filename: options.filename,
        mime_type: options.mimeType,
        purpose: options.purpose ?? "user_artifact",
        content_b64,
        metadata: options.metadata,
      }),
      options,
    );
  }

  /** The spec's name for `inline` (L3122). */
  uploadInline(options: InlineOptions): Promise<UploadEnvelope> {
    return this.inline(options);
  }

  /** Mode `negotiate`: a presigned PUT URL; PUT with exactly `headers`, no Authorization. */
  negotiate(options: NegotiateOptions): Promise<NegotiateResult> {
    return this.call(
      "host/uploadFile",
      {
        mode: "negotiate",
        filename: options.filename,
        mime_type: options.mimeType,
        purpose: options.purpose ?? "user_artifact",
        // The wire field is `expected_bytes`; real SDKs send `size_bytes` (Z23). Send both.
        expected_bytes: options.sizeBytes,
        size_bytes: options.sizeBytes,
      },
      options,
    );
  }

  /** Mode `confirm`: settle an object PUT after `negotiate`; re-confirming re-signs the URL. */
  confirm(r2Key: string, control: CallControl = {}): Promise<UploadEnvelope> {
    return this.call("host/uploadFile", { mode: "confirm", r2_key: r2Key }, control);
  }

  /** negotiate → PUT → confirm in one call, for bytes too large to send inline. */
  async presigned(options: Omit<InlineOptions, "metadata">): Promise<UploadEnvelope> {
    const bytes = toBytes(options.content);
    const negotiated = await this.negotiate({ ...options, sizeBytes: bytes.byteLength });
    let response: Response;
    try {
      response = await fetch(negotiated.put_url, {
        method: "PUT",
        headers: { "Content-Type": options.mimeType, ...negotiated.headers },
        body: bytes,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw await localError(
        "upload",
        "host/uploadFile",
        (c) => c.UPLOAD_ERRORS.STORAGE_ERROR,
        `PUT failed: ${String(error)}`,
        error,
      );
    }
    await response.arrayBuffer();
    if (!response.ok) {
      throw await localError(
        "upload",
        "host/uploadFile",
        (c) => c.UPLOAD_ERRORS.STORAGE_ERROR,
        `PUT failed: HTTP ${response.status}`,
      );
    }
    return this.confirm(negotiated.r2_key, options);
  }
}
