// APS objects on SQL rows and a BlobStore (R46–R50): `upload_begin` reserves the declared
// growth against the user's quota inside the usage-row lock (so parallel begins cannot together
// exceed it) and presigns a PUT bound to the key, Content-Type and size; `upload_complete`
// checks what landed against what was declared and turns the reservation into committed bytes;
// `download_url` presigns a GET. Rules come from `@anna-ai/executa-host/storage`, as in the
// memory store, so both pass the one contract suite.
import { randomBytes } from "node:crypto";
import type { FilesListResult, FilesUploadCompleteResult } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import {
  type FilesService,
  type StorageLimits,
  DEFAULT_STORAGE_LIMITS,
  checkFilesPath,
  checkFilesPrefix,
  checkQuotaBytes,
  checkQuotaEntries,
  decodeCursor,
  effectiveQuota,
  nextGeneration,
  readFilesContentType,
  readFilesDownloadTtl,
  readFilesListLimit,
  readFilesMetadata,
  readFilesSize,
  resolveStorageOwner,
} from "@anna-ai/executa-host/storage";
import { catalogError } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Logger } from "../core/logger.js";
import type { Database, StorageFilesTable, StorageUploadsTable } from "../db/schema.js";
import {
  type Db,
  type OwnerColumns,
  addUsage,
  codePointPage,
  lockUsage,
  ownerColumns,
  reservedBytes,
} from "./sql-usage.js";

type Params = Record<string, unknown>;
type Ctx = Parameters<FilesService["list"]>[1];
type FileRow = StorageFilesTable & { id: number };
type UploadRow = StorageUploadsTable & { id: number };

export interface SqlFilesOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  clock: () => number;
  logger: Logger;
  limits?: Partial<StorageLimits>;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function createSqlFilesService(options: SqlFilesOptions): FilesService {
  const { db, blobs, clock, logger } = options;
  const limits: StorageLimits = { ...DEFAULT_STORAGE_LIMITS, ...options.limits };

  function owner(scope: unknown, ctx: Ctx, method: string): OwnerColumns {
    return ownerColumns(resolveStorageOwner(scope, ctx, method));
  }

  function findFile(trx: Db, o: OwnerColumns, path: string): Promise<FileRow | undefined> {
    return trx
      .selectFrom("storage_files")
      .selectAll()
      .where((eb) => eb.and({ ...o, path }))
      .executeTakeFirst() as Promise<FileRow | undefined>;
  }

  function findUpload(trx: Db, o: OwnerColumns, path: string): Promise<UploadRow | undefined> {
    return trx
      .selectFrom("storage_uploads")
      .selectAll()
      .where((eb) => eb.and({ ...o, path }))
      .executeTakeFirst() as Promise<UploadRow | undefined>;
  }

  /** Blobs are removed after the transaction that let go of them commits; a failure only leaks bytes. */
  function discardBlobs(keys: readonly string[]): void {
    for (const key of keys) {
      blobs.delete(key).catch((error: unknown) => {
        logger.log("warn", "could not delete a blob", { key, error: String(error) });
      });
    }
  }

  /** Deletes the user's uploads whose reservation lapsed (T24: silently reaped); returns their blobs. */
  async function reapAbandoned(trx: Db, userId: string, now: number): Promise<string[]> {
    const gone = await trx
      .deleteFrom("storage_uploads")
      .where("user_id", "=", userId)
      .where("expires_at", "<=", now)
      .returning("blob_key")
      .execute();
    return gone.map((r) => r.blob_key);
  }

  const live = (f: FileRow | undefined): f is FileRow => f !== undefined && f.deleted_at === null;
  const pendingNow = (u: UploadRow | undefined, now: number): u is UploadRow =>
    u !== undefined && Number(u.expires_at) > now;

  function notFound(method: string, path: string) {
    return catalogError(
      STORAGE_ERRORS.NOT_FOUND,
      `${method}: no object at ${JSON.stringify(path)} in this scope`,
      { path },
    );
  }

  function pendingUpload(method: string, path: string) {
    return catalogError(
      STORAGE_ERRORS.UPSTREAM_ERROR,
      `pending_upload: ${method}: the bytes of ${JSON.stringify(path)} have not been uploaded yet; PUT them to the put_url from files/upload_begin first`,
      { path, reason: "pending_upload" },
    );
  }

  return {
    async uploadBegin(params, ctx) {
      const method = "files/upload_begin";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const contentType = readFilesContentType(p["content_type"], method);
      const size = readFilesSize(p["size_bytes"], limits.objectMaxBytes, ctx.grant, method);
      const metadata = readFilesMetadata(p["metadata"], method);
      const o = owner(p["scope"], ctx, method);
      const uploadId = `upl_${randomBytes(12).toString("hex")}`;
      const blobKey = `aps/${randomBytes(16).toString("hex")}`;
      const discarded = await db.transaction().execute(async (trx) => {
        const now = clock();
        const usage = await lockUsage(trx, o.user_id, now);
        const reaped = await reapAbandoned(trx, o.user_id, now);
        const active = await findFile(trx, o, path);
        const superseded = await findUpload(trx, o, path);
        // Soft reservation of the growth over the current object only (R46); a new begin on
        // the same path replaces an unfinished one, whose reservation stops counting.
        const reserve = Math.max(0, (size ?? 0) - (live(active) ? Number(active.size_bytes) : 0));
        const reserved = await reservedBytes(trx, o.user_id, now, superseded?.upload_id);
        checkQuotaBytes(
          { usedBytes: usage.bytes_used, reservedBytes: reserved },
          reserve,
          effectiveQuota(limits.quotaBytes, ctx.grant.quotaBytes),
        );
        if (superseded !== undefined) {
          await trx.deleteFrom("storage_uploads").where("id", "=", superseded.id).execute();
          reaped.push(superseded.blob_key);
        }
        await trx
          .insertInto("storage_uploads")
          .values({
            ...o,
            upload_id: uploadId,
            path,
            blob_key: blobKey,
            content_type: contentType,
            declared_bytes: size ?? -1,
            reserved_bytes: reserve,
            metadata: metadata === undefined ? null : JSON.stringify(metadata),
            created_at: now,
            expires_at: now + limits.reservationTtlSeconds * 1000,
          })
          .execute();
        return reaped;
      });
      discardBlobs(discarded);
      const maxBytes = Math.min(
        size ?? limits.objectMaxBytes,
        limits.objectMaxBytes,
        ctx.grant.objectMaxBytes ?? Number.POSITIVE_INFINITY,
      );
      let presigned;
      try {
        presigned = await blobs.presignPut(blobKey, {
          contentType,
          maxBytes,
          ttlSeconds: limits.putUrlTtlSeconds,
        });
      } catch (error) {
        await db.deleteFrom("storage_uploads").where("upload_id", "=", uploadId).execute();
        throw catalogError(
          STORAGE_ERRORS.UPSTREAM_ERROR,
          `${method}: could not presign the upload: ${error instanceof Error ? error.message : String(error)}`,
          undefined,
          { cause: error },
        );
      }
      return {
        upload_id: uploadId,
        put_url: presigned.url,
        presigned_url: presigned.url,
        method: "PUT",
        headers: presigned.headers,
        expires_at: iso(presigned.expiresAtMs),
        expires_in: limits.putUrlTtlSeconds,
      };
    },

    async uploadComplete(params, ctx): Promise<FilesUploadCompleteResult> {
      const method = "files/upload_complete";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const o = owner(p["scope"], ctx, method);
      const upload = await findUpload(db, o, path);
      if (!pendingNow(upload, clock())) {
        if (live(await findFile(db, o, path))) {
          throw catalogError(
            STORAGE_ERRORS.NOT_FOUND,
            `object not pending finalize: ${JSON.stringify(path)} has no upload in progress; call files/upload_begin first (upload_complete is not idempotent)`,
            { path },
          );
        }
        throw notFound(method, path);
      }
      const landed = await blobs.head(upload.blob_key);
      if (landed === undefined) throw pendingUpload(method, path);
      // The URL was signed for this type and size; a store that cannot enforce them on the
      // PUT (S3 does not bind the length) is checked here, and the upload stays pending.
      const declared = Number(upload.declared_bytes);
      if (declared >= 0 && landed.sizeBytes > declared) {
        throw catalogError(
          STORAGE_ERRORS.VALUE_TOO_LARGE,
          `${method}: ${landed.sizeBytes} bytes landed at ${JSON.stringify(path)} but upload_begin declared ${declared}; upload again with the declared size`,
          { path, sizeBytes: landed.sizeBytes, declaredBytes: declared },
        );
      }
      if (landed.contentType !== upload.content_type) {
        throw catalogError(
          STORAGE_ERRORS.INVALID_REQUEST,
          `${method}: the upload was sent as ${JSON.stringify(landed.contentType)} but upload_begin declared ${JSON.stringify(upload.content_type)}`,
          { path },
        );
      }
      const etag = (await blobs.sha256(upload.blob_key)).slice(0, 32);
      const { result, discarded } = await db.transaction().execute(async (trx) => {
        const now = clock();
        const usage = await lockUsage(trx, o.user_id, now);
        const still = await trx
          .selectFrom("storage_uploads")
          .select("id")
          .where("upload_id", "=", upload.upload_id)
          .executeTakeFirst();
        if (still === undefined) {
          throw catalogError(
            STORAGE_ERRORS.NOT_FOUND,
            `object not pending finalize: the upload of ${JSON.stringify(path)} was superseded or deleted`,
            { path },
          );
        }
        const row = await findFile(trx, o, path);
        const previous = live(row) ? row : undefined;
        // Reconcile against the measured size, not the declared one (R47): the reservation of
        // this upload is replaced by the committed bytes.
        const delta = landed.sizeBytes - Number(previous?.size_bytes ?? 0);
        const newEntries = previous === undefined ? 1 : 0;
        const q = {
          usedBytes: usage.bytes_used,
          reservedBytes: await reservedBytes(trx, o.user_id, now, upload.upload_id),
        };
        checkQuotaBytes(q, delta, effectiveQuota(limits.quotaBytes, ctx.grant.quotaBytes));
        checkQuotaEntries(usage.entry_count, newEntries, limits.quotaEntries);
        const generation = nextGeneration(row === undefined ? undefined : Number(row.generation));
        const fields = {
          blob_key: upload.blob_key,
          size_bytes: landed.sizeBytes,
          content_type: upload.content_type,
          etag,
          generation,
          metadata: upload.metadata,
          updated_at: now,
          deleted_at: null,
        };
        if (row === undefined) {
          await trx
            .insertInto("storage_files")
            .values({ ...o, path, created_at: now, ...fields })
            .execute();
        } else {
          await trx.updateTable("storage_files").set(fields).where("id", "=", row.id).execute();
        }
        await trx.deleteFrom("storage_uploads").where("id", "=", still.id).execute();
        await addUsage(trx, o.user_id, delta, newEntries);
        return {
          result: {
            path,
            etag: fields.etag,
            size_bytes: landed.sizeBytes,
            content_type: upload.content_type,
            updated_at: iso(now),
            generation,
          },
          discarded: previous === undefined ? [] : [previous.blob_key],
        };
      });
      discardBlobs(discarded);
      return result;
    },

    async downloadUrl(params, ctx) {
      const method = "files/download_url";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const ttl = readFilesDownloadTtl(p, method);
      const o = owner(p["scope"], ctx, method);
      const now = clock();
      const [file, upload] = await Promise.all([findFile(db, o, path), findUpload(db, o, path)]);
      if (!live(file)) {
        if (pendingNow(upload, now)) throw pendingUpload(method, path);
        throw notFound(method, path);
      }
      // While a new upload is pending the path answers pending, as APS rewrites it in place.
      if (pendingNow(upload, now)) throw pendingUpload(method, path);
      const presigned = await blobs.presignGet(file.blob_key, {
        ttlSeconds: ttl,
        filename: lastSegment(path),
      });
      return {
        get_url: presigned.url,
        url: presigned.url,
        expires_at: iso(presigned.expiresAtMs),
        expires_in: ttl,
        etag: file.etag,
        size_bytes: Number(file.size_bytes),
        content_type: file.content_type,
      };
    },

    async list(params, ctx): Promise<FilesListResult> {
      const method = "files/list";
      const p = params as Params;
      const prefix = checkFilesPrefix(p["prefix"], method);
      const after = decodeCursor(p["cursor"], method);
      const limit = readFilesListLimit(p["limit"], method);
      const o = owner(p["scope"], ctx, method);
      const now = clock();
      const query = db
        .selectFrom("storage_files as f")
        .selectAll("f")
        .where((eb) =>
          eb.and([
            eb("f.user_id", "=", o.user_id),
            eb("f.scope", "=", o.scope),
            eb("f.owner_id", "=", o.owner_id),
            eb("f.deleted_at", "is", null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("storage_uploads as u")
                  .select("u.id")
                  .whereRef("u.user_id", "=", "f.user_id")
                  .whereRef("u.scope", "=", "f.scope")
                  .whereRef("u.owner_id", "=", "f.owner_id")
                  .whereRef("u.path", "=", "f.path")
                  .where("u.expires_at", ">", now),
              ),
            ),
          ]),
        );
      const { rows, nextCursor } = await codePointPage(db, query, "path", {
        prefix,
        after,
        limit,
      });
      return {
        items: rows.map((r) => {
          return {
            path: r.path,
            size_bytes: Number(r.size_bytes),
            content_type: r.content_type,
            updated_at: iso(Number(r.updated_at)),
            etag: r.etag,
          };
        }),
        next_cursor: nextCursor,
      };
    },

    async delete(params, ctx) {
      const method = "files/delete";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const o = owner(p["scope"], ctx, method);
      const discarded = await db.transaction().execute(async (trx) => {
        const now = clock();
        await lockUsage(trx, o.user_id, now);
        const file = await findFile(trx, o, path);
        const upload = await findUpload(trx, o, path);
        const pending = pendingNow(upload, now);
        if (!live(file) && !pending) throw notFound(method, path);
        const gone: string[] = [];
        if (upload !== undefined) {
          await trx.deleteFrom("storage_uploads").where("id", "=", upload.id).execute();
          gone.push(upload.blob_key);
        }
        if (live(file)) {
          // Tombstone (R50): the row stays; its bytes come back at once.
          await trx
            .updateTable("storage_files")
            .set({ deleted_at: now })
            .where("id", "=", file.id)
            .execute();
          await addUsage(trx, o.user_id, -Number(file.size_bytes), -1);
          gone.push(file.blob_key);
        }
        return gone;
      });
      discardBlobs(discarded);
      return { deleted: true as const };
    },
  } as FilesService;
}
