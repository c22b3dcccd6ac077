// Where the bytes of APS files live. The database keeps the rows; a BlobStore keeps the objects
// and signs the URLs clients move bytes with, so bytes never pass through the JSON API. Two
// implementations: a folder under the data dir whose URLs are signed routes of Nexus itself
// (fs-blob-store.ts), and any S3-compatible bucket with real presigned URLs (s3-blob-store.ts).

export interface PresignPutRequest {
  /** Signed into the URL: the PUT must send exactly this `Content-Type`. */
  contentType: string;
  /** The largest body the URL accepts (the declared size of the upload). */
  maxBytes: number;
  ttlSeconds: number;
}

export interface PresignGetRequest {
  ttlSeconds: number;
  /** Offered in `Content-Disposition`. */
  filename?: string;
}

export interface PresignedBlobUrl {
  url: string;
  /** Headers the request must carry (`Content-Type` for a PUT). */
  headers: Record<string, string>;
  expiresAtMs: number;
}

export interface BlobHead {
  sizeBytes: number;
  contentType: string;
  /** The store's entity tag, quotes removed. */
  etag: string;
}

export interface BlobStore {
  /** `filesystem (<dir>)` or `s3 (<bucket> at <endpoint>)`, safe to log. */
  readonly description: string;
  presignPut(key: string, request: PresignPutRequest): Promise<PresignedBlobUrl>;
  presignGet(key: string, request: PresignGetRequest): Promise<PresignedBlobUrl>;
  /** What landed under `key`, `undefined` when nothing did. */
  head(key: string): Promise<BlobHead | undefined>;
  /**
   * Hex SHA-256 of the object's bytes, the base of the APS file etag (`sha256[:32]`, as the
   * memory store's). A store that does not keep it reads the object once to compute it.
   */
  sha256(key: string): Promise<string>;
  /**
   * Stores the local file at `path` under `key` (server-side writes: bundle files and listing
   * images the caller already streamed to disk and checked).
   */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Resolves when the store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class BlobStoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlobStoreConfigError";
  }
}
