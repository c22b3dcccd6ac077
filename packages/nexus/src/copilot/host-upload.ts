// Host upload (`/api/v1/copilot/app/upload/negotiate|confirm|inline`, T28, R61–R63) into the
// server's blob store. The checks and the key layout are the dev tools' upload service's
// (`createOfflineUploadService`: MIME deny-list, inline cap, key owner, per-file cap at confirm);
// this module gives it the Nexus BlobStore and counts every stored file against the user's APS
// storage quota, the same `storage_usage` row KV and files write (L11050: over quota before a
// presigned URL is issued).
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import {
  UPLOAD_MAX_FILE_BYTES,
  catalogError,
  createOfflineUploadService,
  type UploadBlobStore,
  type UploadService,
} from "@anna-ai/executa-host";
import { STORAGE_QUOTA_BYTES } from "@anna-ai/executa-host/storage";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Database } from "../db/schema.js";
import { addUsage, lockUsage } from "../storage/sql-usage.js";

/** The `<env>` segment of keys this server mints (`exec-uploads/nexus/<user>/…`). */
export const NEXUS_UPLOAD_ENV = "nexus";

export interface HostUploadLimits {
  /** Largest file (default 20 MiB, the router's per-file cap). */
  maxFileBytes: number;
  /** The user's storage quota the files count against (default the APS 5 GiB). */
  quotaBytes: number;
}

export const DEFAULT_HOST_UPLOAD_LIMITS: HostUploadLimits = {
  maxFileBytes: UPLOAD_MAX_FILE_BYTES,
  quotaBytes: STORAGE_QUOTA_BYTES,
};

type Stat = NonNullable<Awaited<ReturnType<UploadBlobStore["stat"]>>>;

/** The Nexus BlobStore as the upload service's object store. */
export function uploadBlobStore(blobs: BlobStore, maxFileBytes: number): UploadBlobStore {
  const signed = (
    u: { url: string; headers: Record<string, string>; expiresAtMs: number },
    method: "PUT" | "GET",
  ) => ({
    url: u.url,
    method,
    headers: u.headers,
    expiresAtMs: u.expiresAtMs,
    expiresAt: new Date(u.expiresAtMs).toISOString(),
  });
  const stat = async (key: string): Promise<Stat | undefined> => {
    const head = await blobs.head(key);
    if (head === undefined) return undefined;
    return { key, ...head, sha256: "", storedAtMs: 0 };
  };
  return {
    async put(key, bytes, options) {
      const body = (async function* () {
        yield bytes;
      })();
      const out = await blobs.put(
        key,
        options.contentType,
        body,
        bytes.byteLength,
        bytes.byteLength,
      );
      if (!out.ok) throw new Error(out.message);
      return { key, ...out.head, storedAtMs: Date.now() };
    },
    async presignPut(key, options) {
      const maxBytes = Math.min(options.maxBytes ?? maxFileBytes, maxFileBytes);
      const u = await blobs.presignPut(key, {
        contentType: options.contentType,
        maxBytes,
        ttlSeconds: options.ttlSeconds,
      });
      return signed(u, "PUT");
    },
    async presignGet(key, options) {
      const u = await blobs.presignGet(key, {
        ttlSeconds: options.ttlSeconds,
        ...(options.filename === undefined ? {} : { filename: options.filename }),
      });
      return signed(u, "GET");
    },
    stat,
    async delete(key) {
      await blobs.delete(key);
      return true;
    },
  };
}

export interface HostUploads {
  service: UploadService;
  limits: HostUploadLimits;
  /** Refuses `addBytes` more when the user's storage would pass the quota. */
  checkQuota(userId: string, addBytes: number): Promise<void>;
  /** Counts a stored file once (a second confirm of the same key counts nothing). */
  count(userId: string, key: string, sizeBytes: number, contentType: string): Promise<void>;
  /** Removes a stored object the quota refused. */
  drop(key: string): Promise<void>;
}

export function hostUploads(
  db: Kysely<Database>,
  blobs: BlobStore,
  clock: () => number,
  limits: HostUploadLimits = DEFAULT_HOST_UPLOAD_LIMITS,
): HostUploads {
  const service = createOfflineUploadService({
    mode: "synthetic",
    blobServer: uploadBlobStore(blobs, limits.maxFileBytes),
    clock,
    env: NEXUS_UPLOAD_ENV,
  });
  const overQuota = (used: number, add: number) =>
    catalogError(
      UPLOAD_ERRORS.QUOTA_EXCEEDED,
      `storing ${add} more bytes would pass your ${limits.quotaBytes}-byte storage quota (${used} used); delete files or ask the operator for more`,
      { usedBytes: used, quotaBytes: limits.quotaBytes },
    );
  return {
    service,
    limits,
    async checkQuota(userId, addBytes) {
      const row = await db
        .selectFrom("storage_usage")
        .select("bytes_used")
        .where("user_id", "=", userId)
        .executeTakeFirst();
      const used = Number(row?.bytes_used ?? 0);
      if (used + addBytes > limits.quotaBytes) throw overQuota(used, addBytes);
    },
    drop: (key) => blobs.delete(key),
    async count(userId, key, sizeBytes, contentType) {
      await db.transaction().execute(async (trx) => {
        const usage = await lockUsage(trx, userId, clock());
        const inserted = await trx
          .insertInto("copilot_uploads")
          .values({
            r2_key: key,
            user_id: userId,
            size_bytes: sizeBytes,
            content_type: contentType,
            created_at: clock(),
          })
          .onConflict((oc) => oc.column("r2_key").doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
        if (usage.bytes_used + sizeBytes > limits.quotaBytes)
          throw overQuota(usage.bytes_used, sizeBytes);
        await addUsage(trx, userId, sizeBytes, 1);
      });
    },
  };
}
