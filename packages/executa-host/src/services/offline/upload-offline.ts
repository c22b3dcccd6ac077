// The offline `host/uploadFile` service (T28, R61–R63) behind `executa dev --no-upload |
// --mock-upload`. `off` (the default) answers -32201 upload_not_granted (R167). `synthetic`
// really stores bytes on the loopback blob server: `inline` decodes and stores, `negotiate`
// presigns a PUT the plugin uploads to itself, `confirm` HEADs what landed, and every download
// URL is a presigned GET carrying the signed Content-Disposition. `mock` answers from the first
// matching fixture line and behaves like `synthetic` for calls no line answers.
//
// Limits split with the router (invoke-budget.ts): the router owns the per-invoke counters
// (16 files, 80 MiB total, counted on inline and first confirm), the declared-size checks and
// the purpose gate; it also refuses a confirm of a key this invoke was not given. This service
// checks what only it can see: the decoded inline size (8 MiB), the size that really landed at
// confirm (per-file cap), MIME types, key ownership and the bytes themselves. Purposes are
// checked again here so the service is safe without the router.
import {
  DEFAULT_UPLOAD_PURPOSE,
  INLINE_UPLOAD_MAX_BYTES,
  UPLOAD_GET_URL_TTL_S,
  UPLOAD_PURPOSES,
  UPLOAD_PUT_URL_TTL_S,
} from "@anna-ai/app-schema";
import type { HostUploadFileResult, HostUploadNegotiateResult } from "@anna-ai/app-schema";
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import { UPLOAD_MAX_FILE_BYTES, capped } from "../../router/limits.js";
import type { UploadGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import type { UploadService } from "../upload-service.js";
import { canonicalCallParams } from "./agent-ids.js";
import { fixtureError, fixtureResult } from "./agent-mock-answer.js";
import type { LoopbackBlobServer } from "./blob-server.js";
import type { MockFixture } from "./mock-fixture.js";
import {
  UPLOAD_DEFAULT_ENV,
  checkKeyOwner,
  keyFilename,
  safeFilename,
  uploadKey,
} from "./upload-keys.js";
import { checkMime } from "./upload-mime.js";

/** What the upload service needs from the blob server (an S3 store can stand in later). */
export type UploadBlobStore = Pick<
  LoopbackBlobServer,
  "put" | "presignPut" | "presignGet" | "stat" | "delete"
>;

export interface OfflineUploadOptions {
  mode: "off" | "mock" | "synthetic";
  /** Mock-answer file (`ns:"upload"` or `ns:"host", method:"uploadFile"` lines, `match:{mode}`). */
  fixture?: MockFixture;
  /** Where bytes go; must be started. Required unless `mode` is `off`. */
  blobServer?: UploadBlobStore;
  /** Epoch ms for key timestamps and URL expiry. Default `Date.now`. */
  clock?: () => number;
  /** The `<env>` segment of `r2_key`s (default `dev`). */
  env?: string;
}

type Ctx = ServiceContext<UploadGrant>;
type Params = Record<string, unknown>;

const METHOD = "host/uploadFile";

interface Negotiated {
  filename: string;
  contentType: string;
}

export function createOfflineUploadService(options: OfflineUploadOptions): UploadService {
  if (options.mode === "off") return disabledUploadService();
  if (options.blobServer === undefined) {
    throw new TypeError(`createOfflineUploadService: mode "${options.mode}" needs a blobServer`);
  }
  const blobs: UploadBlobStore = options.blobServer;
  const clock = options.clock ?? Date.now;
  const env = options.env ?? UPLOAD_DEFAULT_ENV;
  const fixture = options.mode === "mock" ? options.fixture : undefined;
  /** Keys minted by negotiate → what they were minted for. */
  const negotiated = new Map<string, Negotiated>();
  let counter = 0;

  function answer(mode: string, params: Params): unknown {
    const entry = fixture?.find(METHOD, { ...params, mode });
    if (entry === undefined) return undefined;
    if (entry.error !== undefined) throw fixtureError(entry, "upload");
    return entry.result === undefined ? undefined : fixtureResult(entry);
  }

  function mint(ctx: Ctx, purpose: string, filename: string, params: Params): string {
    counter += 1;
    return uploadKey(ctx, env, purpose, clock(), filename, [counter, canonicalCallParams(params)]);
  }

  async function envelope(
    key: string,
    contentType: string,
    sizeBytes: number,
    filename: string,
    mode: "inline" | "confirm",
  ): Promise<HostUploadFileResult> {
    const signed = await storageCall(() =>
      blobs.presignGet(key, { ttlSeconds: UPLOAD_GET_URL_TTL_S, filename }),
    );
    return {
      r2_key: key,
      download_url: signed.url,
      url: signed.url,
      mime_type: contentType,
      size_bytes: sizeBytes,
      bytes: sizeBytes,
      expires_at: signed.expiresAt,
      expires_in: UPLOAD_GET_URL_TTL_S,
      _meta: { mode },
    };
  }

  return {
    async inline(params, ctx) {
      const filename = checkFilename(params.filename);
      const mime = checkMime(params.mime_type, METHOD);
      const purpose = checkPurpose(params.purpose, ctx.grant);
      const bytes = decodeBase64(params.content_b64);
      if (bytes.byteLength > INLINE_UPLOAD_MAX_BYTES) {
        throw catalogError(
          UPLOAD_ERRORS.TOO_LARGE,
          `${METHOD}: inline upload of ${bytes.byteLength} bytes is over the ${INLINE_UPLOAD_MAX_BYTES}-byte inline limit; use mode "negotiate" and "confirm"`,
          { limit: "inline_max_bytes", maxBytes: INLINE_UPLOAD_MAX_BYTES },
        );
      }
      const answered = answer("inline", params);
      if (answered !== undefined) return answered as HostUploadFileResult;
      const key = mint(ctx, purpose, filename, params);
      await storageCall(() => blobs.put(key, bytes, { contentType: mime }));
      return envelope(key, mime, bytes.byteLength, safeFilename(filename), "inline");
    },

    async negotiate(params, ctx) {
      const filename = checkFilename(params.filename);
      const mime = checkMime(params.mime_type, METHOD);
      const purpose = checkPurpose(params.purpose, ctx.grant);
      const expected = params.expected_bytes ?? params.size_bytes;
      if (expected !== undefined && expected !== null) {
        if (!Number.isInteger(expected) || expected <= 0) {
          throw catalogError(
            UPLOAD_ERRORS.INVALID_REQUEST,
            `${METHOD}: 'expected_bytes' (size_bytes) must be an integer > 0`,
          );
        }
      }
      const answered = answer("negotiate", params);
      if (answered !== undefined) return answered as HostUploadNegotiateResult;
      const key = mint(ctx, purpose, filename, params);
      // The PUT must carry the Content-Type exactly as the plugin named it (R2 enforces it); the
      // envelope echoes it lower-cased.
      const contentType = String(params.mime_type);
      const signed = await storageCall(
        () => blobs.presignPut(key, { contentType, ttlSeconds: UPLOAD_PUT_URL_TTL_S }),
        UPLOAD_ERRORS.PRESIGN_FAILED,
      );
      negotiated.set(key, { filename: safeFilename(filename), contentType: mime });
      return {
        r2_key: key,
        put_url: signed.url,
        headers: { "Content-Type": contentType },
        expires_in: UPLOAD_PUT_URL_TTL_S,
        expires_at: signed.expiresAt,
        _meta: { mode: "presigned-put" },
      };
    },

    async confirm(params, ctx) {
      const key = params.r2_key;
      if (typeof key !== "string" || key === "") {
        throw catalogError(UPLOAD_ERRORS.INVALID_REQUEST, `${METHOD}: 'r2_key' is required`);
      }
      // A fixture line answering confirm plays the whole exchange, canned keys included (they
      // cannot name a live invoke); the router still refuses keys this invoke was not given.
      const answered = answer("confirm", params);
      if (answered !== undefined) return answered as HostUploadFileResult;
      checkKeyOwner(key, ctx, env, METHOD);
      const stat = await storageCall(() => blobs.stat(key));
      if (stat === undefined) {
        throw catalogError(
          UPLOAD_ERRORS.NOT_FOUND,
          `${METHOD}: nothing was uploaded to this r2_key (the PUT failed, never happened or expired); negotiate and PUT again`,
        );
      }
      const maxFileBytes = capped(ctx.grant.maxFileBytes, UPLOAD_MAX_FILE_BYTES);
      if (stat.sizeBytes > maxFileBytes) {
        // The object store took the bytes (R2 does not enforce the declared size); the host
        // refuses to register them and drops the object.
        await storageCall(() => blobs.delete(key));
        throw catalogError(
          UPLOAD_ERRORS.TOO_LARGE,
          `${METHOD}: the uploaded file has ${stat.sizeBytes} bytes, over the ${maxFileBytes}-byte per-file limit`,
          { limit: "max_file_bytes", maxBytes: maxFileBytes },
        );
      }
      if (stat.sizeBytes === 0) {
        throw catalogError(UPLOAD_ERRORS.INVALID_REQUEST, `${METHOD}: the uploaded file is empty`);
      }
      const minted = negotiated.get(key);
      const contentType = minted?.contentType ?? checkMime(stat.contentType, METHOD);
      return envelope(
        key,
        contentType,
        stat.sizeBytes,
        minted?.filename ?? keyFilename(key),
        "confirm",
      );
    },
  };
}

function checkFilename(filename: unknown): string {
  if (typeof filename !== "string" || filename.trim() === "") {
    throw catalogError(UPLOAD_ERRORS.INVALID_REQUEST, `${METHOD}: 'filename' must be non-empty`);
  }
  return filename;
}

/** `ALLOWED_PURPOSES` ∩ the grant's `allowedPurposes` (R61); default `user_artifact`. */
function checkPurpose(purpose: unknown, grant: UploadGrant): string {
  const wanted = purpose === undefined || purpose === null ? DEFAULT_UPLOAD_PURPOSE : purpose;
  const known: readonly string[] = UPLOAD_PURPOSES;
  const allowed = (grant.allowedPurposes ?? known).filter((p) => known.includes(p));
  if (typeof wanted !== "string" || !allowed.includes(wanted)) {
    throw catalogError(
      UPLOAD_ERRORS.PURPOSE_REJECTED,
      `${METHOD}: purpose ${JSON.stringify(wanted)} is not allowed; allowed purposes: ${allowed.join(", ")}`,
      { allowedPurposes: allowed },
    );
  }
  return wanted;
}

/**
 * Strict base64 (standard or URL-safe alphabet, padding optional, whitespace ignored): anything
 * else is -32203, as is an empty payload (R62).
 */
function decodeBase64(content: unknown): Buffer {
  const text = typeof content === "string" ? content.replace(/\s+/g, "") : "";
  if (text === "") {
    throw catalogError(UPLOAD_ERRORS.INVALID_REQUEST, `${METHOD}: 'content_b64' is empty`);
  }
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  const body = standard.replace(/=+$/, "");
  const padding = standard.length - body.length;
  if (
    !/^[A-Za-z0-9+/]+$/.test(body) ||
    body.length % 4 === 1 ||
    padding > 2 ||
    (padding > 0 && (body.length + padding) % 4 !== 0)
  ) {
    throw catalogError(
      UPLOAD_ERRORS.INVALID_REQUEST,
      `${METHOD}: 'content_b64' is not valid base64`,
      { reason: "MALFORMED_BASE64" },
    );
  }
  return Buffer.from(body, "base64");
}

/** Blob-store failures are the family's storage error (retryable, L3214), unless catalogued. */
async function storageCall<T>(
  call: () => Promise<T>,
  entry = UPLOAD_ERRORS.STORAGE_ERROR,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw catalogError(
      entry,
      `${METHOD}: the object store failed: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      { cause: error },
    );
  }
}

/** `--no-upload` (the default): every mode is -32201 `upload_not_granted` (R167). */
function disabledUploadService(): UploadService {
  const refuse = () =>
    Promise.reject(
      catalogError(
        UPLOAD_ERRORS.NOT_GRANTED,
        `${METHOD} is disabled on this host (upload off); start executa dev with --mock-upload <fixture.jsonl> to serve it`,
        { reason: "DISABLED" },
      ),
    );
  return { inline: refuse, negotiate: refuse, confirm: refuse };
}
