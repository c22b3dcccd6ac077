import {
  DEFAULT_SCOPE,
  HostClient,
  compact,
  type CallControl,
  type StorageScope,
} from "./host-client.js";

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
