// An S3-compatible bucket as the blob store (`s3://bucket?endpoint=http://host:port&region=…`):
// path-style addressing (MinIO, R2, s3rver and other non-AWS endpoints), SigV4 presigned URLs
// with Content-Type signed into the PUT, checksums only where the operation requires them (the
// SDK's default since 2025 adds CRC32 to every PUT, which older S3-compatible servers refuse).
// Credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, …),
// never from the URL, so the URL is safe to log.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { contentDisposition } from "@anna-ai/executa-host";
import {
  type BlobHead,
  type BlobStore,
  BlobStoreConfigError,
  type PresignedBlobUrl,
  type PresignGetRequest,
  type PresignPutRequest,
} from "./blob-store.js";
import { PRESIGN_MAX_TTL_S } from "./fs-blob-store.js";

export interface S3BlobStoreOptions {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  /** Object keys are stored under this prefix (`?prefix=`), e.g. `nexus/`. */
  prefix: string;
  clock: () => number;
}

/** `s3://bucket?endpoint=…&region=…&prefix=…` → options; throws on anything else. */
export function parseS3Url(url: string, clock: () => number): S3BlobStoreOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BlobStoreConfigError(`blob store URL '${url}' is not a URL`);
  }
  const bucket = u.hostname;
  if (!bucket) {
    throw new BlobStoreConfigError(
      `blob store URL '${url}' names no bucket (use s3://<bucket>?endpoint=http://host:port&region=us-east-1)`,
    );
  }
  if (u.username || u.password) {
    throw new BlobStoreConfigError(
      "put S3 credentials in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, not in the blob store URL",
    );
  }
  const endpoint = u.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]+\/?$/.test(endpoint)) {
    throw new BlobStoreConfigError(`endpoint '${endpoint}' must look like http(s)://host[:port]`);
  }
  return {
    bucket,
    endpoint,
    region: u.searchParams.get("region") ?? "us-east-1",
    prefix: u.searchParams.get("prefix") ?? "",
    clock,
  };
}

export class S3BlobStore implements BlobStore {
  readonly description: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #clock: () => number;

  constructor(options: S3BlobStoreOptions) {
    this.#bucket = options.bucket;
    this.#prefix = options.prefix;
    this.#clock = options.clock;
    this.description = `s3 (${options.bucket} at ${options.endpoint ?? "AWS"})`;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      forcePathStyle: true,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  #ttl(ttlSeconds: number): number {
    return Math.max(1, Math.min(Math.round(ttlSeconds), PRESIGN_MAX_TTL_S));
  }

  async presignPut(key: string, r: PresignPutRequest): Promise<PresignedBlobUrl> {
    const expiresIn = this.#ttl(r.ttlSeconds);
    const expiresAtMs = this.#clock() + expiresIn * 1000;
    const url = await getSignedUrl(
      this.#client,
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#prefix + key,
        ContentType: r.contentType,
      }),
      // Content-Type is a signed header: a PUT with another one fails SignatureDoesNotMatch.
      { expiresIn, signableHeaders: new Set(["content-type"]) },
    );
    return { url, headers: { "Content-Type": r.contentType }, expiresAtMs };
  }

  async presignGet(key: string, r: PresignGetRequest): Promise<PresignedBlobUrl> {
    const expiresIn = this.#ttl(r.ttlSeconds);
    const head = await this.head(key);
    const url = await getSignedUrl(
      this.#client,
      new GetObjectCommand({
        Bucket: this.#bucket,
        Key: this.#prefix + key,
        ResponseContentDisposition: contentDisposition(
          head?.contentType ?? "application/octet-stream",
          r.filename,
        ),
      }),
      { expiresIn },
    );
    return { url, headers: {}, expiresAtMs: this.#clock() + expiresIn * 1000 };
  }

  async head(key: string): Promise<BlobHead | undefined> {
    try {
      const out = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }),
      );
      return {
        sizeBytes: out.ContentLength ?? 0,
        contentType: out.ContentType ?? "application/octet-stream",
        etag: (out.ETag ?? "").replace(/"/g, ""),
      };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (err as Error).name === "NotFound") return undefined;
      throw err;
    }
  }

  /** S3 keeps no SHA-256 of a presigned upload; the object is read once, streaming. */
  async sha256(key: string): Promise<string> {
    const out = await this.#client.send(
      new GetObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }),
    );
    const hash = createHash("sha256");
    for await (const chunk of out.Body as AsyncIterable<Uint8Array>) hash.update(chunk);
    return hash.digest("hex");
  }

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const { size } = await stat(path);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#prefix + key,
        ContentType: contentType,
        ContentLength: size,
        Body: createReadStream(path),
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(
      new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }),
    );
  }

  async ping(): Promise<void> {
    await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
  }

  close(): Promise<void> {
    this.#client.destroy();
    return Promise.resolve();
  }
}
