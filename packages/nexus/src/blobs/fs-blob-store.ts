// The embedded blob store: objects in a folder under the data dir, presigned URLs that are
// signed routes of this Nexus (`/api/v1/storage/blob/<key>`, fs-blob-routes.ts). A URL's HMAC
// covers the method, the object key, the Content-Type a PUT must send, the size cap, the
// download file name and the expiry (executa-host's signGrant, the same scheme as the offline
// blob server), so a URL cannot be pointed at another object, another type or a later time.
// Files are named by the SHA-256 of the key, so no key can name a path outside the folder.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { signGrant, verifyGrant, type SignedGrant } from "@anna-ai/executa-host";
import type {
  BlobHead,
  BlobStore,
  PresignedBlobUrl,
  PresignGetRequest,
  PresignPutRequest,
} from "./blob-store.js";

/** URL path of every object; fs-blob-routes.ts serves it. */
export const FS_BLOB_ROUTE = "/api/v1/storage/blob/";
/** Longest lifetime of a presigned URL, as S3's. */
export const PRESIGN_MAX_TTL_S = 7 * 24 * 3600;
const SIGNING_KEY_FILE = "signing-key";

export interface FsBlobStoreOptions {
  /** The folder; created if missing. */
  root: string;
  /** The origin clients reach this server at; known only once it listens. */
  origin: () => string;
  clock: () => number;
}

/** The sidecar `<file>.json` next to each object. */
interface StoredMeta extends BlobHead {
  sha256: string;
}

export type PutOutcome = { ok: true; head: BlobHead } | { ok: false; status: 413; message: string };

export class FsBlobStore implements BlobStore {
  readonly description: string;
  readonly #root: string;
  readonly #origin: () => string;
  readonly #clock: () => number;
  #secret: Buffer | undefined;

  constructor(options: FsBlobStoreOptions) {
    this.#root = options.root;
    this.#origin = options.origin;
    this.#clock = options.clock;
    this.description = `filesystem (${options.root})`;
  }

  /** Creates the folders and loads (or creates) the URL signing key, kept so URLs outlive a restart. */
  async init(): Promise<void> {
    await mkdir(join(this.#root, "objects"), { recursive: true });
    await mkdir(join(this.#root, "tmp"), { recursive: true });
    const keyFile = join(this.#root, SIGNING_KEY_FILE);
    try {
      this.#secret = Buffer.from((await readFile(keyFile, "utf8")).trim(), "hex");
    } catch {
      this.#secret = randomBytes(32);
      await writeFile(keyFile, this.#secret.toString("hex"), { mode: 0o600, flag: "wx" }).catch(
        async () => {
          // Another process created it first: use theirs.
          this.#secret = Buffer.from((await readFile(keyFile, "utf8")).trim(), "hex");
        },
      );
      await chmod(keyFile, 0o600);
    }
  }

  #key(): Buffer {
    if (this.#secret === undefined) throw new Error("FsBlobStore.init() was not called");
    return this.#secret;
  }

  #file(key: string): string {
    return join(this.#root, "objects", createHash("sha256").update(key).digest("hex"));
  }

  #presign(grant: SignedGrant): PresignedBlobUrl {
    const query = new URLSearchParams({ "X-Expires": String(grant.expiresAtMs) });
    if (grant.maxBytes !== undefined) query.set("X-Max-Bytes", String(grant.maxBytes));
    if (grant.filename !== undefined) query.set("X-Filename", grant.filename);
    query.set("X-Signature", signGrant(this.#key(), grant));
    return {
      url: `${this.#origin()}${FS_BLOB_ROUTE}${encodeURIComponent(grant.key)}?${query.toString()}`,
      headers: grant.contentType === undefined ? {} : { "Content-Type": grant.contentType },
      expiresAtMs: grant.expiresAtMs,
    };
  }

  #expiry(ttlSeconds: number): number {
    return this.#clock() + Math.round(Math.min(ttlSeconds, PRESIGN_MAX_TTL_S) * 1000);
  }

  presignPut(key: string, r: PresignPutRequest): Promise<PresignedBlobUrl> {
    return Promise.resolve(
      this.#presign({
        method: "PUT",
        key,
        contentType: r.contentType,
        maxBytes: r.maxBytes,
        expiresAtMs: this.#expiry(r.ttlSeconds),
      }),
    );
  }

  presignGet(key: string, r: PresignGetRequest): Promise<PresignedBlobUrl> {
    return Promise.resolve(
      this.#presign({
        method: "GET",
        key,
        expiresAtMs: this.#expiry(r.ttlSeconds),
        ...(r.filename === undefined ? {} : { filename: r.filename }),
      }),
    );
  }

  /** Checks a request against its URL: `undefined` when it may proceed, else why not. */
  verify(grant: SignedGrant, signature: string): "bad_signature" | "expired" | undefined {
    if (!verifyGrant(this.#key(), grant, signature)) return "bad_signature";
    if (!Number.isFinite(grant.expiresAtMs) || this.#clock() > grant.expiresAtMs) return "expired";
    return undefined;
  }

  async #meta(key: string): Promise<StoredMeta | undefined> {
    try {
      return JSON.parse(await readFile(`${this.#file(key)}.json`, "utf8")) as StoredMeta;
    } catch {
      return undefined;
    }
  }

  async head(key: string): Promise<BlobHead | undefined> {
    const meta = await this.#meta(key);
    return meta && { sizeBytes: meta.sizeBytes, contentType: meta.contentType, etag: meta.etag };
  }

  async sha256(key: string): Promise<string> {
    const meta = await this.#meta(key);
    if (meta === undefined) throw new Error(`no blob under ${JSON.stringify(key)}`);
    return meta.sha256;
  }

  /**
   * Streams a PUT body to a temporary file, refusing past `cap` bytes, then renames it into
   * place: a reader sees the old object or the whole new one, never a torn write.
   */
  async put(
    key: string,
    contentType: string,
    body: ReadableStream<Uint8Array> | null,
    cap: number,
  ): Promise<PutOutcome> {
    const tmp = join(this.#root, "tmp", randomBytes(12).toString("hex"));
    const out = createWriteStream(tmp, { mode: 0o600 });
    const md5 = createHash("md5");
    const sha256 = createHash("sha256");
    let size = 0;
    try {
      if (body !== null) {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > cap) {
            await reader.cancel();
            return { ok: false, status: 413, message: `the body is over the ${cap}-byte cap` };
          }
          md5.update(value);
          sha256.update(value);
          if (!out.write(value)) await new Promise<void>((r) => out.once("drain", () => r()));
        }
      }
      await new Promise<void>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
      const head: BlobHead = { sizeBytes: size, contentType, etag: md5.digest("hex") };
      const file = this.#file(key);
      await rename(tmp, file);
      const meta: StoredMeta = { ...head, sha256: sha256.digest("hex") };
      await writeFile(`${tmp}.json`, JSON.stringify(meta), { mode: 0o600 });
      await rename(`${tmp}.json`, `${file}.json`);
      return { ok: true, head };
    } finally {
      out.destroy();
      await rm(tmp, { force: true });
    }
  }

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
    const out = await this.put(key, contentType, body, Number.MAX_SAFE_INTEGER);
    if (!out.ok) throw new Error(out.message);
  }

  /** The object's bytes as a stream, with its head; `undefined` when absent. */
  async read(key: string): Promise<{ head: BlobHead; stream: NodeJS.ReadableStream } | undefined> {
    const head = await this.head(key);
    if (head === undefined) return undefined;
    return { head, stream: createReadStream(this.#file(key)) };
  }

  async delete(key: string): Promise<void> {
    const file = this.#file(key);
    await rm(`${file}.json`, { force: true });
    await rm(file, { force: true });
  }

  async ping(): Promise<void> {
    await stat(join(this.#root, "objects"));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
