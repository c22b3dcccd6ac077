// In-memory APS key-value store (`--storage memory`, the `executa dev` default) with the
// production semantics of R42–R45 and T23/T25: rows namespaced by (scope, owner, key),
// canonical-JSON values up to 256 KB, payload etags with a generation that counts every write,
// `if_match` on set and delete, absolute TTLs that make rows behave as missing, alphabetical
// pages with opaque cursors, and a per-user byte quota. Timestamps come from the injected clock.
import type {
  StorageDeleteResult,
  StorageGetParams,
  StorageGetResult,
  StorageListItem,
  StorageListResult,
  StorageSetResult,
} from "@anna-ai/app-schema";
import { decodeCursor } from "../../storage/list-cursor.js";
import { checkKvKey, checkKvPrefix } from "../../storage/kv-keys.js";
import {
  checkIfMatch,
  expiresAtMs,
  isExpired,
  kvNotFound,
  kvPayload,
  nextGeneration,
  readKvMetadata,
  readKvTags,
  readKvTtlSeconds,
} from "../../storage/kv-values.js";
import { DEFAULT_STORAGE_LIMITS } from "../../storage/limits.js";
import type { StorageLimits } from "../../storage/limits.js";
import { listsAfter, pageOfKeys, readKvListLimit } from "../../storage/list-page.js";
import { namespaceId } from "../../storage/namespace.js";
import { effectiveQuota } from "../../storage/quota.js";
import type { StorageGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import type { Scoped, StorageService } from "../storage-service.js";
import { StorageQuota } from "./storage-quota.js";

type Ctx = ServiceContext<StorageGrant>;
type Params = Record<string, unknown>;

export interface MemoryStorageOptions {
  /** Epoch ms for `updated_at`, `expires_at` and TTL checks. Default `Date.now`. */
  clock?: () => number;
  limits?: Partial<StorageLimits>;
  /** Share one per-user quota with other services (the files service does). */
  quota?: StorageQuota;
}

/** A `storage/get` hit also carries the row's generation (as the App side does, R132). */
export type MemoryStorageGetResult = StorageGetResult & { generation?: number };

/** A list head; `metadata` travels too when the row has some (R135). */
export type MemoryStorageListItem = StorageListItem & { metadata?: Record<string, unknown> };

export interface MemoryStorageService extends StorageService {
  get(params: Scoped<StorageGetParams>, ctx: Ctx): Promise<MemoryStorageGetResult>;
  /** The per-user quota ledger, shared with `createMemoryFilesService({ storage })`. */
  readonly quota: StorageQuota;
  readonly limits: Readonly<StorageLimits>;
}

interface KvRow {
  payload: string;
  etag: string;
  generation: number;
  sizeBytes: number;
  updatedAtMs: number;
  expiresAtMs?: number;
  metadata?: Record<string, unknown>;
  tags?: string[];
}

/** Rows of one (scope, owner). */
interface Namespace {
  userId: string;
  rows: Map<string, KvRow>;
  /** Last generation of recently deleted/expired keys, so a re-created key keeps counting up. */
  generations: Map<string, number>;
}

/** Deleted keys whose generation a namespace remembers; older ones restart at 1 if re-created. */
const GENERATIONS_REMEMBERED = 10_000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function createMemoryStorageService(
  options: MemoryStorageOptions = {},
): MemoryStorageService {
  const clock = options.clock ?? Date.now;
  const limits: StorageLimits = { ...DEFAULT_STORAGE_LIMITS, ...options.limits };
  const quota =
    options.quota ??
    new StorageQuota({ limitBytes: limits.quotaBytes, limitEntries: limits.quotaEntries, clock });
  const namespaces = new Map<string, Namespace>();

  function namespace(scope: unknown, ctx: Ctx, method: string): Namespace {
    const id = namespaceId(scope, ctx, method);
    let ns = namespaces.get(id);
    if (ns === undefined) {
      ns = { userId: ctx.userId, rows: new Map(), generations: new Map() };
      namespaces.set(id, ns);
    }
    return ns;
  }

  function expired(row: KvRow, now: number): boolean {
    return isExpired(row.expiresAtMs, now);
  }

  /** Removes a row and refunds its bytes (delete, or lazy reclaim of an expired row). */
  function drop(ns: Namespace, key: string, row: KvRow): void {
    ns.rows.delete(key);
    quota.charge(ns.userId, -row.sizeBytes);
    quota.countEntries(ns.userId, -1);
    ns.generations.delete(key);
    ns.generations.set(key, row.generation);
    if (ns.generations.size > GENERATIONS_REMEMBERED) {
      const oldest = ns.generations.keys().next();
      if (oldest.done !== true) ns.generations.delete(oldest.value);
    }
  }

  /** The row if it is live; an expired row is reclaimed on sight (R42: behaves as missing). */
  function live(ns: Namespace, key: string, now: number): KvRow | undefined {
    const row = ns.rows.get(key);
    if (row === undefined) return undefined;
    if (expired(row, now)) {
      drop(ns, key, row);
      return undefined;
    }
    return row;
  }

  /** Reclaims every expired row of a user, refunding its bytes. */
  function sweepExpired(userId: string, now: number): void {
    for (const ns of namespaces.values()) {
      if (ns.userId !== userId) continue;
      for (const [key, row] of ns.rows) if (expired(row, now)) drop(ns, key, row);
    }
  }

  /** Expired rows are reclaimed lazily; before refusing a write for quota, reclaim them all. */
  function chargeWrite(userId: string, deltaBytes: number, newEntries: number, ctx: Ctx): void {
    const limit = effectiveQuota(quota.limitBytes, ctx.grant.quotaBytes);
    const write = () => {
      quota.checkEntries(userId, newEntries);
      quota.charge(userId, deltaBytes, limit);
      quota.countEntries(userId, newEntries);
    };
    try {
      write();
    } catch {
      sweepExpired(userId, clock());
      write();
    }
  }

  const service: MemoryStorageService = {
    quota,
    limits,

    async get(params, ctx) {
      const key = checkKvKey(params.key, "storage/get");
      const ns = namespace(params.scope, ctx, "storage/get");
      const row = live(ns, key, clock());
      if (row === undefined) return { value: null, exists: false, etag: null };
      return {
        value: JSON.parse(row.payload) as unknown,
        exists: true,
        etag: row.etag,
        generation: row.generation,
      };
    },

    async set(params, ctx): Promise<StorageSetResult> {
      const method = "storage/set";
      const p = params as Params;
      const key = checkKvKey(p["key"], method);
      const { payload, sizeBytes, etag } = kvPayload(
        p["value"],
        key,
        limits.kvValueMaxBytes,
        method,
      );
      const ttl = readKvTtlSeconds(p["ttl_seconds"], method);
      const metadata = readKvMetadata(p["metadata"], method);
      const tags = readKvTags(p["tags"], method);
      const ns = namespace(p["scope"], ctx, method);
      const now = clock();
      const current = live(ns, key, now);
      checkIfMatch(p["if_match"], current?.etag, key, method);
      // Quota first, so a refused write changes nothing.
      chargeWrite(ns.userId, sizeBytes - (current?.sizeBytes ?? 0), current ? 0 : 1, ctx);
      const generation = nextGeneration(current?.generation ?? ns.generations.get(key));
      const expiresAt = expiresAtMs(now, ttl);
      ns.generations.delete(key);
      const row: KvRow = {
        payload,
        etag,
        generation,
        sizeBytes,
        updatedAtMs: now,
        ...(expiresAt === undefined ? {} : { expiresAtMs: expiresAt }),
        ...(metadata === undefined ? {} : { metadata }),
        ...(tags === undefined ? {} : { tags }),
      };
      ns.rows.set(key, row);
      return { etag, generation, size_bytes: sizeBytes };
    },

    async delete(params, ctx): Promise<StorageDeleteResult> {
      const method = "storage/delete";
      const p = params as Params;
      const key = checkKvKey(p["key"], method);
      const ns = namespace(p["scope"], ctx, method);
      const current = live(ns, key, clock());
      checkIfMatch(p["if_match"], current?.etag, key, method);
      if (current === undefined) throw kvNotFound(key, method);
      drop(ns, key, current);
      return { deleted: true };
    },

    async list(params, ctx): Promise<StorageListResult> {
      const method = "storage/list";
      const p = params as Params;
      const prefix = checkKvPrefix(p["prefix"], method);
      const after = decodeCursor(p["cursor"], method);
      const limit = readKvListLimit(p["limit"], method);
      const ns = namespace(p["scope"], ctx, method);
      const now = clock();
      const keys: string[] = [];
      for (const [key, row] of ns.rows) {
        if (!listsAfter(key, prefix, after)) continue;
        if (expired(row, now)) {
          drop(ns, key, row);
          continue;
        }
        keys.push(key);
      }
      const { page, nextCursor } = pageOfKeys(keys, limit);
      return {
        items: page.map((key) => head(key, ns.rows.get(key) as KvRow)),
        next_cursor: nextCursor,
      };
    },
  };
  return service;
}

function head(key: string, row: KvRow): MemoryStorageListItem {
  return {
    key,
    etag: row.etag,
    size_bytes: row.sizeBytes,
    updated_at: iso(row.updatedAtMs),
    ...(row.expiresAtMs === undefined ? {} : { expires_at: iso(row.expiresAtMs) }),
    ...(row.metadata === undefined ? {} : { metadata: row.metadata }),
    ...(row.tags === undefined ? {} : { tags: [...row.tags] }),
  };
}
