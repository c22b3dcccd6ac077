// A loopback HTTP object store that stands in for R2 presigned URLs in offline mode, so a
// plugin's real `files/upload_begin` → HTTP PUT → `upload_complete` → GET flow works without
// Nexus (the upstream harness answers files/* with "not implemented"; D-host-59). It listens
// on 127.0.0.1 only, keeps objects in memory with hard caps, and behaves like R2 where plugins
// can tell: a PUT with another Content-Type than the one signed gets 403 SignatureDoesNotMatch,
// an expired URL 403, an oversized body 413, and a successful PUT answers 200 with an `ETag`.
// Shared by the files and upload services: they presign, the plugin moves the bytes.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import { contentDisposition, signGrant, verifyGrant } from "./blob-server-signing.js";
import type { SignedGrant } from "./blob-server-signing.js";

const MiB = 1024 * 1024;

/** Largest single object (`OBJECT_MAX_BYTES`, R46). */
export const BLOB_MAX_OBJECT_BYTES = 256 * MiB;
/** All objects together: the server refuses PUTs (507) rather than grow without bound. */
export const BLOB_MAX_STORED_BYTES = 1024 * MiB;
/** Longest presigned URL lifetime (S3's 7-day ceiling). */
export const BLOB_PRESIGN_MAX_TTL_S = 7 * 24 * 3600;
/** After refusing a body, read and discard at most this much more before closing the socket. */
export const BLOB_DRAIN_MAX_BYTES = 8 * MiB;
/** URL path prefix of every object. */
const OBJECT_PATH_PREFIX = "/blob/";

export interface LoopbackBlobServerOptions {
  /** Epoch ms; decides URL expiry and `storedAtMs`. Default `Date.now`. */
  clock?: () => number;
  /** HMAC key for URL signatures; random per server by default. */
  secret?: Uint8Array | string;
  maxObjectBytes?: number;
  maxStoredBytes?: number;
  logger?: Logger;
}

export interface PresignPutOptions {
  /** Signed into the URL: the PUT must send exactly this `Content-Type`. */
  contentType: string;
  /** Largest body accepted (capped at the server's `maxObjectBytes`); larger gets 413. */
  maxBytes?: number;
  ttlSeconds: number;
}

export interface PresignGetOptions {
  ttlSeconds: number;
  /** Offered in `Content-Disposition` (`inline` or `attachment` by content type, T28). */
  filename?: string;
}

export interface PresignedUrl {
  url: string;
  method: "PUT" | "GET";
  /** Headers the request must carry: `{"Content-Type": …}` for a PUT, `{}` for a GET. */
  headers: Record<string, string>;
  expiresAtMs: number;
  /** ISO 8601 form of `expiresAtMs`. */
  expiresAt: string;
}

export interface BlobStat {
  key: string;
  sizeBytes: number;
  contentType: string;
  /** The `ETag` header the PUT answered with: the quoted MD5 of the bytes, as S3/R2 do. */
  etag: string;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  storedAtMs: number;
}

interface StoredBlob extends BlobStat {
  bytes: Buffer;
}

/** A blob write refused by the server's caps (host-side `put`). */
export class BlobServerError extends Error {
  readonly status: number;

  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BlobServerError";
    this.status = status;
  }
}

export class LoopbackBlobServer {
  readonly #clock: () => number;
  readonly #secret: Uint8Array;
  readonly #maxObjectBytes: number;
  readonly #maxStoredBytes: number;
  readonly #logger: Logger;
  readonly #blobs = new Map<string, StoredBlob>();
  #storedBytes = 0;
  #server: Server | undefined;
  #starting: Promise<void> | undefined;
  #origin: string | undefined;
  #closed = false;

  constructor(options: LoopbackBlobServerOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#secret =
      typeof options.secret === "string"
        ? Buffer.from(options.secret, "utf8")
        : (options.secret ?? randomBytes(32));
    this.#maxObjectBytes = options.maxObjectBytes ?? BLOB_MAX_OBJECT_BYTES;
    this.#maxStoredBytes = options.maxStoredBytes ?? BLOB_MAX_STORED_BYTES;
    this.#logger = options.logger ?? NULL_LOGGER;
  }

  /** Listens on 127.0.0.1, port 0 (a free port). Idempotent. */
  start(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("blob server is closed"));
    this.#starting ??= new Promise<void>((resolve, reject) => {
      const server = createServer((req, res) => this.#handle(req, res));
      // `Expect: 100-continue` (curl, large bodies): answer 100 only once the URL checks pass,
      // so a refused upload never sends its body.
      server.on("checkContinue", (req, res) => this.#handle(req, res, true));
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        server.on("error", (error) =>
          this.#logger.warn("blob server error", { error: error.message }),
        );
        const address = server.address() as AddressInfo;
        this.#origin = `http://127.0.0.1:${address.port}`;
        this.#server = server;
        resolve();
      });
    });
    return this.#starting;
  }

  /** `http://127.0.0.1:<port>`; throws before `start()`. */
  get origin(): string {
    if (this.#origin === undefined) throw new Error("blob server is not started; await start()");
    return this.#origin;
  }

  /** Bytes held by all objects. */
  get storedBytes(): number {
    return this.#storedBytes;
  }

  /** Closes the listener and every open connection, and drops every object. */
  async close(): Promise<void> {
    this.#closed = true;
    const server = this.#server;
    this.#server = undefined;
    this.#blobs.clear();
    this.#storedBytes = 0;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  // ── the API the files and upload services call ─────────────────────────────────────────

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedUrl> {
    const maxBytes = Math.min(options.maxBytes ?? this.#maxObjectBytes, this.#maxObjectBytes);
    return this.#presign({
      method: "PUT",
      key,
      contentType: options.contentType,
      maxBytes,
      expiresAtMs: this.#expiry(options.ttlSeconds),
    });
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<PresignedUrl> {
    return this.#presign({
      method: "GET",
      key,
      expiresAtMs: this.#expiry(options.ttlSeconds),
      ...(options.filename === undefined ? {} : { filename: options.filename }),
    });
  }

  /** Metadata of a stored object, `undefined` when nothing was PUT under `key`. */
  async stat(key: string): Promise<BlobStat | undefined> {
    const blob = this.#blobs.get(key);
    if (blob === undefined) return undefined;
    const { bytes: _bytes, ...stat } = blob;
    return stat;
  }

  /** The stored bytes (shared, do not mutate), `undefined` when absent. */
  async read(key: string): Promise<Uint8Array | undefined> {
    return this.#blobs.get(key)?.bytes;
  }

  /** Removes an object; `true` when there was one. */
  async delete(key: string): Promise<boolean> {
    const blob = this.#blobs.get(key);
    if (blob === undefined) return false;
    this.#blobs.delete(key);
    this.#storedBytes -= blob.sizeBytes;
    return true;
  }

  /** Stores bytes directly (host-side writes such as inline uploads), with the same caps. */
  async put(key: string, bytes: Uint8Array, options: { contentType: string }): Promise<BlobStat> {
    if (bytes.byteLength > this.#maxObjectBytes) {
      throw new BlobServerError(
        413,
        `object of ${bytes.byteLength} bytes is over the ${this.#maxObjectBytes}-byte cap`,
      );
    }
    const stored = this.#store(key, Buffer.from(bytes), options.contentType);
    if (stored === undefined) {
      throw new BlobServerError(507, "the blob server is full");
    }
    return this.stat(key) as Promise<BlobStat>;
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────

  #expiry(ttlSeconds: number): number {
    if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
      throw new RangeError(`ttlSeconds must be a positive number, got ${ttlSeconds}`);
    }
    return this.#clock() + Math.round(Math.min(ttlSeconds, BLOB_PRESIGN_MAX_TTL_S) * 1000);
  }

  #presign(grant: SignedGrant): PresignedUrl {
    const query = new URLSearchParams({ "X-Expires": String(grant.expiresAtMs) });
    if (grant.maxBytes !== undefined) query.set("X-Max-Bytes", String(grant.maxBytes));
    if (grant.filename !== undefined) query.set("X-Filename", grant.filename);
    query.set("X-Signature", signGrant(this.#secret, grant));
    return {
      url: `${this.origin}${OBJECT_PATH_PREFIX}${encodeURIComponent(grant.key)}?${query.toString()}`,
      method: grant.method,
      headers: grant.contentType === undefined ? {} : { "Content-Type": grant.contentType },
      expiresAtMs: grant.expiresAtMs,
      expiresAt: new Date(grant.expiresAtMs).toISOString(),
    };
  }

  /** Stores or replaces an object; `undefined` when the server-wide cap would be exceeded. */
  #store(key: string, bytes: Buffer, contentType: string): StoredBlob | undefined {
    const previous = this.#blobs.get(key)?.sizeBytes ?? 0;
    if (this.#storedBytes - previous + bytes.byteLength > this.#maxStoredBytes) return undefined;
    const blob: StoredBlob = {
      key,
      sizeBytes: bytes.byteLength,
      contentType,
      etag: `"${createHash("md5").update(bytes).digest("hex")}"`,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      storedAtMs: this.#clock(),
      bytes,
    };
    this.#blobs.set(key, blob);
    this.#storedBytes += bytes.byteLength - previous;
    return blob;
  }

  #handle(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith(OBJECT_PATH_PREFIX)) {
      return reject(req, res, 404, "NoSuchKey", "The specified key does not exist.");
    }
    let key: string;
    try {
      key = decodeURIComponent(url.pathname.slice(OBJECT_PATH_PREFIX.length));
    } catch {
      return reject(req, res, 400, "InvalidURI", "Could not parse the specified URI.");
    }
    const method = req.method ?? "";
    if (method !== "PUT" && method !== "GET" && method !== "HEAD") {
      res.setHeader("Allow", "PUT, GET, HEAD");
      return reject(req, res, 405, "MethodNotAllowed", `${method} is not allowed on an object.`);
    }
    const q = url.searchParams;
    const expiresAtMs = Number(q.get("X-Expires"));
    const maxBytesParam = q.get("X-Max-Bytes");
    const filename = q.get("X-Filename");
    const contentType = req.headers["content-type"] ?? "";
    const grant: SignedGrant =
      method === "PUT"
        ? {
            method: "PUT",
            key,
            expiresAtMs,
            contentType,
            ...(maxBytesParam === null ? {} : { maxBytes: Number(maxBytesParam) }),
          }
        : { method: "GET", key, expiresAtMs, ...(filename === null ? {} : { filename }) };
    if (!verifyGrant(this.#secret, grant, q.get("X-Signature") ?? "")) {
      return reject(
        req,
        res,
        403,
        "SignatureDoesNotMatch",
        method === "PUT"
          ? "The request signature we calculated does not match the signature you provided. Check the Content-Type header: it must equal the one the URL was signed for."
          : "The request signature we calculated does not match the signature you provided.",
      );
    }
    if (!Number.isFinite(expiresAtMs) || this.#clock() > expiresAtMs) {
      return reject(req, res, 403, "AccessDenied", "Request has expired");
    }
    if (method === "PUT") {
      const cap = Math.min(grant.maxBytes ?? this.#maxObjectBytes, this.#maxObjectBytes);
      const declared = Number(req.headers["content-length"]);
      if (expectsContinue && !(Number.isFinite(declared) && declared > cap)) res.writeContinue();
      return this.#receive(req, res, key, contentType, cap);
    }
    return this.#serve(req, res, key, grant.filename);
  }

  #receive(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    contentType: string,
    cap: number,
  ): void {
    const tooLarge = () =>
      reject(
        req,
        res,
        413,
        "EntityTooLarge",
        `Your proposed upload exceeds the maximum allowed size of ${cap} bytes.`,
      );
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > cap) return tooLarge();
    // Bounded memory: chunks are kept only while the running total fits the cap.
    let chunks: Buffer[] = [];
    let received = 0;
    let refused = false;
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > cap) {
        chunks = [];
        refused = true;
        req.off("data", onData);
        tooLarge();
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("error", () => {
      chunks = [];
    });
    req.on("end", () => {
      if (refused || res.headersSent || this.#closed) return;
      const stored = this.#store(key, Buffer.concat(chunks, received), contentType);
      chunks = [];
      if (stored === undefined) {
        return reject(req, res, 507, "InsufficientStorage", "The blob server is full.");
      }
      res.writeHead(200, { ETag: stored.etag, "Content-Length": "0" });
      res.end();
    });
  }

  #serve(req: IncomingMessage, res: ServerResponse, key: string, filename?: string): void {
    const blob = this.#blobs.get(key);
    if (blob === undefined) {
      return reject(req, res, 404, "NoSuchKey", "The specified key does not exist.");
    }
    res.writeHead(200, {
      "Content-Type": blob.contentType,
      "Content-Length": String(blob.sizeBytes),
      "Content-Disposition": contentDisposition(blob.contentType, filename),
      ETag: blob.etag,
      "Last-Modified": new Date(blob.storedAtMs).toUTCString(),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=0",
    });
    // Drain whatever body a GET/HEAD carried so the connection stays reusable.
    req.resume();
    res.end(req.method === "HEAD" ? undefined : blob.bytes);
  }
}

/**
 * An S3-style XML error. A refused request body is discarded up to BLOB_DRAIN_MAX_BYTES (so
 * clients that write the whole body before reading still see the status), then the socket closes.
 */
function reject(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  if (res.headersSent) return;
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`;
  const complete = req.complete;
  res.writeHead(status, {
    "Content-Type": "application/xml",
    "Content-Length": String(Buffer.byteLength(body)),
    ...(complete ? {} : { Connection: "close" }),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  if (complete) return;
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > BLOB_DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c,
  );
}
