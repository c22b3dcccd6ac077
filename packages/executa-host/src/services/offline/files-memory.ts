// In-memory APS objects (`files/*`, R46–R50) whose bytes really move over HTTP: `upload_begin`
// presigns a PUT on the loopback blob server, the plugin uploads, `upload_complete` finalises
// what landed, and `download_url` presigns a GET. This goes beyond the upstream harness, which
// answers files/* with "not implemented" (D-host-59). Rows are namespaced like KV rows and
// share the per-user quota of the storage service they are given.
import { createHash } from "node:crypto";
import type {
  FilesDeleteResult,
  FilesDownloadUrlResult,
  FilesListResult,
  FilesObject,
  FilesUploadBeginResult,
  FilesUploadCompleteResult,
} from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import {
  readFilesContentType,
  readFilesDownloadTtl,
  readFilesMetadata,
  readFilesSize,
} from "../../storage/files-fields.js";
import { checkFilesPath, checkFilesPrefix } from "../../storage/files-path.js";
import { DEFAULT_STORAGE_LIMITS } from "../../storage/limits.js";
import type { StorageLimits } from "../../storage/limits.js";
import { decodeCursor } from "../../storage/list-cursor.js";
import { listsAfter, pageOfKeys, readFilesListLimit } from "../../storage/list-page.js";
import { namespaceId } from "../../storage/namespace.js";
import { effectiveQuota } from "../../storage/quota.js";
import type { FilesService } from "../files-service.js";
import type { StorageGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import type { LoopbackBlobServer } from "./blob-server.js";
import type { MemoryStorageService } from "./storage-memory.js";
import { StorageQuota } from "./storage-quota.js";
import type { QuotaReservation } from "./storage-quota.js";

type Ctx = ServiceContext<StorageGrant>;
type Params = Record<string, unknown>;

/** The part of the blob server the files service needs (an S3 store can stand in later). */
export type BlobStore = Pick<LoopbackBlobServer, "presignPut" | "presignGet" | "stat" | "delete">;

export interface MemoryFilesOptions {
  /** Where the bytes go; must be started before the first `upload_begin`. */
  blobServer: BlobStore;
  /** Share this KV service's per-user quota (R40: one quota for KV and files). */
  storage?: Pick<MemoryStorageService, "quota">;
  /** A quota ledger to share when there is no `storage`. */
  quota?: StorageQuota;
  /** Epoch ms for timestamps, URL expiry and reservation expiry. Default `Date.now`. */
  clock?: () => number;
  limits?: Partial<StorageLimits>;
  logger?: Logger;
}

/** `upload_begin` result: both URL names, the HTTP method and the URL's lifetime. */
export type MemoryFilesUploadBeginResult = FilesUploadBeginResult & {
  presigned_url: string;
  method: "PUT";
  expires_in: number;
};

/** `download_url` result, with the object's head like the App side's (R139). */
export type MemoryFilesDownloadUrlResult = FilesDownloadUrlResult & {
  expires_in: number;
  etag: string;
  size_bytes: number;
  content_type: string;
};

export interface MemoryFilesService extends FilesService {
  readonly quota: StorageQuota;
}

interface FileVersion {
  blobKey: string;
  sizeBytes: number;
  contentType: string;
  etag: string;
  updatedAtMs: number;
  metadata?: Record<string, string>;
}

interface PendingUpload {
  uploadId: string;
  blobKey: string;
  contentType: string;
  reservation: QuotaReservation;
  metadata?: Record<string, string>;
}

/**
 * One path. While `pending` is set the path behaves as pending (hidden from list, download
 * answers pending_upload) even if an older `active` version exists, as APS rewrites the row in
 * place; an abandoned upload is reaped when its reservation lapses and the old version returns.
 */
interface FileRow {
  active?: FileVersion;
  pending?: PendingUpload;
}

interface Namespace {
  userId: string;
  /** Short, stable blob-key prefix for this (scope, owner). */
  tag: string;
  rows: Map<string, FileRow>;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function createMemoryFilesService(options: MemoryFilesOptions): MemoryFilesService {
  const clock = options.clock ?? Date.now;
  const limits: StorageLimits = { ...DEFAULT_STORAGE_LIMITS, ...options.limits };
  const quota =
    options.storage?.quota ??
    options.quota ??
    new StorageQuota({ limitBytes: limits.quotaBytes, clock });
  const blobs = options.blobServer;
  const logger = options.logger ?? NULL_LOGGER;
  const namespaces = new Map<string, Namespace>();
  let uploads = 0;
  /** Uploads begun and maybe never completed; swept so abandoned bytes do not pile up. */
  const begun = new Map<PendingUpload, { ns: Namespace; path: string }>();

  /** Reaps every upload whose reservation lapsed, wherever it is (called on each begin). */
  function sweepAbandoned(): void {
    const now = clock();
    for (const [pending, { ns, path }] of begun) {
      if (pending.reservation.expiresAtMs > now) continue;
      begun.delete(pending);
      if (ns.rows.get(path)?.pending === pending) row(ns, path);
    }
  }

  function namespace(scope: unknown, ctx: Ctx, method: string): Namespace {
    const id = namespaceId(scope, ctx, method);
    let ns = namespaces.get(id);
    if (ns === undefined) {
      const tag = createHash("sha256").update(id).digest("hex").slice(0, 16);
      ns = { userId: ctx.userId, tag, rows: new Map() };
      namespaces.set(id, ns);
    }
    return ns;
  }

  function discardBlob(key: string): void {
    blobs.delete(key).catch((error: unknown) => {
      logger.warn("could not delete a blob", { key, error: String(error) });
    });
  }

  /** The row, after reaping an upload whose reservation lapsed (T24: silently GC'd). */
  function row(ns: Namespace, path: string): FileRow | undefined {
    const found = ns.rows.get(path);
    if (found?.pending !== undefined && found.pending.reservation.expiresAtMs <= clock()) {
      quota.release(found.pending.reservation);
      discardBlob(found.pending.blobKey);
      delete found.pending;
      if (found.active === undefined) {
        ns.rows.delete(path);
        return undefined;
      }
    }
    return found;
  }

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

  const service: MemoryFilesService = {
    quota,

    async uploadBegin(params, ctx): Promise<MemoryFilesUploadBeginResult> {
      const method = "files/upload_begin";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      sweepAbandoned();
      const contentType = readFilesContentType(p["content_type"], method);
      const size = readFilesSize(p["size_bytes"], limits.objectMaxBytes, ctx.grant, method);
      const metadata = readFilesMetadata(p["metadata"], method);
      const ns = namespace(p["scope"], ctx, method);
      const existing = row(ns, path);
      const activeBytes = existing?.active?.sizeBytes ?? 0;
      const limit = effectiveQuota(quota.limitBytes, ctx.grant.quotaBytes);
      // A new begin supersedes an unfinished one on the same path; its reservation is replaced
      // only if the new one fits, so a refused begin changes nothing.
      const superseded = existing?.pending;
      // Soft reservation of the growth over the current object only (R46).
      const reservation = quota.reserve(
        ns.userId,
        (size ?? 0) - activeBytes,
        limits.reservationTtlSeconds * 1000,
        limit,
        superseded?.reservation,
      );
      uploads += 1;
      const uploadId = `upl_${createHash("sha256")
        .update(`${ns.tag}\n${path}\n${uploads}`)
        .digest("hex")
        .slice(0, 24)}`;
      const blobKey = `aps/${ns.tag}/${uploadId}`;
      const maxBytes = Math.min(
        size ?? limits.objectMaxBytes,
        limits.objectMaxBytes,
        ctx.grant.objectMaxBytes ?? Number.POSITIVE_INFINITY,
      );
      // The row turns pending before the first await, so a concurrent begin on the same path
      // supersedes this one instead of both believing they own it.
      if (superseded !== undefined) discardBlob(superseded.blobKey);
      const target = ns.rows.get(path) ?? {};
      const pending: PendingUpload = {
        uploadId,
        blobKey,
        contentType,
        reservation,
        ...(metadata === undefined ? {} : { metadata }),
      };
      target.pending = pending;
      ns.rows.set(path, target);
      begun.set(pending, { ns, path });
      let presigned;
      try {
        presigned = await blobs.presignPut(blobKey, {
          contentType,
          maxBytes,
          ttlSeconds: limits.putUrlTtlSeconds,
        });
      } catch (error) {
        quota.release(reservation);
        if (target.pending === pending) {
          delete target.pending;
          if (target.active === undefined && ns.rows.get(path) === target) ns.rows.delete(path);
        }
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
        headers: { "Content-Type": contentType },
        expires_at: presigned.expiresAt,
        expires_in: limits.putUrlTtlSeconds,
      };
    },

    async uploadComplete(params, ctx): Promise<FilesUploadCompleteResult> {
      const method = "files/upload_complete";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const ns = namespace(p["scope"], ctx, method);
      const current = row(ns, path);
      if (current === undefined) throw notFound(method, path);
      const pending = current.pending;
      if (pending === undefined) {
        throw catalogError(
          STORAGE_ERRORS.NOT_FOUND,
          `object not pending finalize: ${JSON.stringify(path)} has no upload in progress; call files/upload_begin first (upload_complete is not idempotent)`,
          { path },
        );
      }
      const landed = await blobs.stat(pending.blobKey);
      if (current.pending !== pending || ns.rows.get(path) !== current) {
        throw catalogError(
          STORAGE_ERRORS.NOT_FOUND,
          `object not pending finalize: the upload of ${JSON.stringify(path)} was superseded or deleted`,
          { path },
        );
      }
      if (landed === undefined) throw pendingUpload(method, path);
      // Reconcile against the measured size, not the declared one (R47).
      const previous = current.active;
      quota.charge(
        ns.userId,
        landed.sizeBytes - (previous?.sizeBytes ?? 0),
        effectiveQuota(quota.limitBytes, ctx.grant.quotaBytes),
        pending.reservation,
      );
      if (previous !== undefined) discardBlob(previous.blobKey);
      const version: FileVersion = {
        blobKey: pending.blobKey,
        sizeBytes: landed.sizeBytes,
        contentType: pending.contentType,
        etag: landed.sha256.slice(0, 32),
        updatedAtMs: clock(),
        ...(pending.metadata === undefined ? {} : { metadata: pending.metadata }),
      };
      current.active = version;
      delete current.pending;
      return {
        path,
        etag: version.etag,
        size_bytes: version.sizeBytes,
        content_type: version.contentType,
        updated_at: iso(version.updatedAtMs),
      };
    },

    async downloadUrl(params, ctx): Promise<MemoryFilesDownloadUrlResult> {
      const method = "files/download_url";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const ttl = readFilesDownloadTtl(p, method);
      const ns = namespace(p["scope"], ctx, method);
      const current = row(ns, path);
      if (current === undefined) throw notFound(method, path);
      const active = current.active;
      if (current.pending !== undefined || active === undefined) throw pendingUpload(method, path);
      const presigned = await blobs.presignGet(active.blobKey, {
        ttlSeconds: ttl,
        filename: lastSegment(path),
      });
      return {
        get_url: presigned.url,
        url: presigned.url,
        expires_at: presigned.expiresAt,
        expires_in: ttl,
        etag: active.etag,
        size_bytes: active.sizeBytes,
        content_type: active.contentType,
      };
    },

    async list(params, ctx): Promise<FilesListResult> {
      const method = "files/list";
      const p = params as Params;
      const prefix = checkFilesPrefix(p["prefix"], method);
      const after = decodeCursor(p["cursor"], method);
      const limit = readFilesListLimit(p["limit"], method);
      const ns = namespace(p["scope"], ctx, method);
      const paths: string[] = [];
      for (const path of [...ns.rows.keys()]) {
        if (!listsAfter(path, prefix, after)) continue;
        const current = row(ns, path);
        if (current?.active === undefined || current.pending !== undefined) continue;
        paths.push(path);
      }
      const { page, nextCursor } = pageOfKeys(paths, limit);
      const items: FilesObject[] = page.map((path) => {
        const active = ns.rows.get(path)?.active as FileVersion;
        return {
          path,
          size_bytes: active.sizeBytes,
          content_type: active.contentType,
          updated_at: iso(active.updatedAtMs),
          etag: active.etag,
        };
      });
      return { items, next_cursor: nextCursor };
    },

    async delete(params, ctx): Promise<FilesDeleteResult> {
      const method = "files/delete";
      const p = params as Params;
      const path = checkFilesPath(p["path"], method);
      const ns = namespace(p["scope"], ctx, method);
      const current = row(ns, path);
      if (current === undefined) throw notFound(method, path);
      // Pending uploads can be deleted too; their soft reservation lapses on its own TTL, as
      // Redis releases it (L9240). Committed bytes come back at once (R50).
      if (current.pending !== undefined) discardBlob(current.pending.blobKey);
      if (current.active !== undefined) {
        quota.charge(ns.userId, -current.active.sizeBytes);
        discardBlob(current.active.blobKey);
      }
      ns.rows.delete(path);
      return { deleted: true };
    },
  };
  return service;
}
