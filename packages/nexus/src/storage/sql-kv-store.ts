// APS key-value storage on SQLite or PostgreSQL (R42–R45, R133–R135): the executa-host
// `StorageService`, so the memory store of `executa dev` and this one run one contract suite.
// Every rule (keys, canonical JSON and etag, TTL, metadata, tags, if_match, generation, cursors,
// quota arithmetic) comes from `@anna-ai/executa-host/storage`; this file only says how rows
// live in SQL. A write is one transaction that first locks the user's usage row (sql-usage.ts),
// so `if_match` compare-and-set and the quota check see exactly what the previous write left.
import type { StorageListResult, StorageSetResult } from "@anna-ai/app-schema";
import {
  type StorageLimits,
  type StorageService,
  DEFAULT_STORAGE_LIMITS,
  checkIfMatch,
  checkKvKey,
  checkKvPrefix,
  checkQuotaBytes,
  checkQuotaEntries,
  decodeCursor,
  effectiveQuota,
  expiresAtMs,
  isExpired,
  kvNotFound,
  kvPayload,
  nextGeneration,
  readKvListLimit,
  readKvMetadata,
  readKvTags,
  readKvTtlSeconds,
  resolveStorageOwner,
} from "@anna-ai/executa-host/storage";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { type KvRow, type KvRows, kvDb } from "./kv-rows.js";
import { type OwnerColumns, type UsageRow, codePointPage, ownerColumns } from "./sql-usage.js";

type Params = Record<string, unknown>;
type Ctx = Parameters<StorageService["get"]>[1];

export interface SqlStorageOptions {
  db: Kysely<Database>;
  /** Epoch ms for `updated_at`, `expires_at` and TTL checks. */
  clock: () => number;
  limits?: Partial<StorageLimits>;
}

export interface SqlStorageService extends StorageService {
  readonly limits: Readonly<StorageLimits>;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function isLive(row: KvRow | undefined, now: number): row is KvRow {
  return (
    row !== undefined && row.deleted_at === null && !isExpired(row.expires_at ?? undefined, now)
  );
}

/**
 * An expired row still counted in usage is reclaimed (marked deleted, its bytes and entry
 * refunded) when a write meets it; reads just skip it (R42: it behaves as missing).
 */
async function reclaimIfExpired(rows: KvRows, row: KvRow | undefined, now: number): Promise<void> {
  if (row === undefined || row.deleted_at !== null || !isExpired(row.expires_at ?? undefined, now))
    return;
  await rows.markDeleted(row.id, row.expires_at as number);
  await rows.addUsage(row.user_id, -Number(row.size_bytes), -1);
  row.deleted_at = row.expires_at;
}

/** Reclaims every expired row of the user; returns the usage after it. */
async function sweepExpired(
  rows: KvRows,
  userId: string,
  now: number,
  usage: UsageRow,
): Promise<UsageRow> {
  const expired = await rows.expired(userId, now);
  if (expired.length === 0) return usage;
  const bytes = expired.reduce((n, r) => n + Number(r.size_bytes), 0);
  await rows.markExpired(expired.map((r) => r.id));
  await rows.addUsage(userId, -bytes, -expired.length);
  return {
    bytes_used: usage.bytes_used - bytes,
    entry_count: usage.entry_count - expired.length,
  };
}

export function createSqlStorageService(options: SqlStorageOptions): SqlStorageService {
  const { db, clock } = options;
  const limits: StorageLimits = { ...DEFAULT_STORAGE_LIMITS, ...options.limits };
  const kv = kvDb(db);

  function owner(scope: unknown, ctx: Ctx, method: string): OwnerColumns {
    return ownerColumns(resolveStorageOwner(scope, ctx, method));
  }

  const service: SqlStorageService = {
    limits,

    async get(params, ctx) {
      const key = checkKvKey(params.key, "storage/get");
      const o = owner(params.scope, ctx, "storage/get");
      const row = await kv.read((rows) => rows.find(o, key));
      if (!isLive(row, clock())) return { value: null, exists: false, etag: null };
      return {
        value: JSON.parse(row.payload) as unknown,
        exists: true,
        etag: row.etag,
        generation: Number(row.generation),
      } as Awaited<ReturnType<StorageService["get"]>>;
    },

    async set(params, ctx): Promise<StorageSetResult> {
      const method = "storage/set";
      const p = params as Params;
      const key = checkKvKey(p["key"], method);
      const value = kvPayload(p["value"], key, limits.kvValueMaxBytes, method);
      const ttl = readKvTtlSeconds(p["ttl_seconds"], method);
      const metadata = readKvMetadata(p["metadata"], method);
      const tags = readKvTags(p["tags"], method);
      const o = owner(p["scope"], ctx, method);
      return kv.write(async (rows) => {
        const now = clock();
        let usage = await rows.lockUsage(o.user_id, now);
        const row = await rows.find(o, key);
        const live = isLive(row, now) ? row : undefined;
        checkIfMatch(p["if_match"], live?.etag, key, method);
        if (live === undefined && row?.deleted_at === null) {
          await reclaimIfExpired(rows, row, now);
          usage = {
            bytes_used: usage.bytes_used - Number(row.size_bytes),
            entry_count: usage.entry_count - 1,
          };
        }
        const deltaBytes = value.sizeBytes - Number(live?.size_bytes ?? 0);
        const newEntries = live === undefined ? 1 : 0;
        const limit = effectiveQuota(limits.quotaBytes, ctx.grant.quotaBytes);
        const reserved = await rows.reservedBytes(o.user_id, now);
        const fits = (u: UsageRow) => {
          checkQuotaBytes({ usedBytes: u.bytes_used, reservedBytes: reserved }, deltaBytes, limit);
          checkQuotaEntries(u.entry_count, newEntries, limits.quotaEntries);
        };
        try {
          fits(usage);
        } catch {
          // Expired rows are reclaimed lazily; before refusing for quota, reclaim them all.
          fits(await sweepExpired(rows, o.user_id, now, usage));
        }
        const generation = nextGeneration(row === undefined ? undefined : Number(row.generation));
        const fields = {
          payload: value.payload,
          etag: value.etag,
          generation,
          size_bytes: value.sizeBytes,
          metadata: metadata === undefined ? null : JSON.stringify(metadata),
          tags: tags === undefined ? null : JSON.stringify(tags),
          updated_at: now,
          expires_at: expiresAtMs(now, ttl) ?? null,
          deleted_at: null,
        };
        if (row === undefined) await rows.insert(o, key, now, fields);
        else await rows.update(row.id, fields);
        await rows.addUsage(o.user_id, deltaBytes, newEntries);
        return { etag: value.etag, generation, size_bytes: value.sizeBytes };
      });
    },

    async delete(params, ctx) {
      const method = "storage/delete";
      const p = params as Params;
      const key = checkKvKey(p["key"], method);
      const o = owner(p["scope"], ctx, method);
      const deleted = await kv.write(async (rows) => {
        const now = clock();
        await rows.lockUsage(o.user_id, now);
        const row = await rows.find(o, key);
        const live = isLive(row, now) ? row : undefined;
        checkIfMatch(p["if_match"], live?.etag, key, method);
        if (live === undefined) {
          // Refused after the transaction, so the reclaim of an expired row commits.
          await reclaimIfExpired(rows, row, now);
          return false;
        }
        // Soft delete (R44): the row stays, so a re-created key keeps counting its generation.
        await rows.markDeleted(live.id, now);
        await rows.addUsage(o.user_id, -Number(live.size_bytes), -1);
        return true;
      });
      if (!deleted) throw kvNotFound(key, method);
      return { deleted: true as const };
    },

    async list(params, ctx): Promise<StorageListResult> {
      const method = "storage/list";
      const p = params as Params;
      const prefix = checkKvPrefix(p["prefix"], method);
      const after = decodeCursor(p["cursor"], method);
      const limit = readKvListLimit(p["limit"], method);
      const o = owner(p["scope"], ctx, method);
      const now = clock();
      const query = db
        .selectFrom("storage_kv")
        .selectAll()
        .where((eb) => eb.and(o))
        .where("deleted_at", "is", null)
        .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]));
      const { rows, nextCursor } = await codePointPage(db, query, "key", { prefix, after, limit });
      return {
        items: rows.map((r) => {
          return {
            key: r.key,
            etag: r.etag,
            size_bytes: Number(r.size_bytes),
            updated_at: iso(Number(r.updated_at)),
            ...(r.expires_at === null ? {} : { expires_at: iso(Number(r.expires_at)) }),
            ...(r.metadata === null
              ? {}
              : { metadata: JSON.parse(r.metadata) as Record<string, unknown> }),
            ...(r.tags === null ? {} : { tags: JSON.parse(r.tags) as string[] }),
          };
        }),
        next_cursor: nextCursor,
      };
    },
  };
  return service;
}
