// In-memory APS key-value store (`--storage memory`, the `executa dev` default) with the
// production semantics of R42–R45 and T23/T25: rows namespaced by (scope, owner, key),
// canonical-JSON values up to 256 KB, payload etags with a generation that counts every write,
// `if_match` on set and delete, absolute TTLs that make rows behave as missing, alphabetical
// pages with opaque cursors, and a per-user byte quota. Timestamps come from the injected clock.
import {
  STORAGE_LIST_DEFAULT_LIMIT,
  STORAGE_MAX_TAGS,
  STORAGE_TTL_MAX_S,
  clampStorageListLimit,
} from "@anna-ai/app-schema";
import type {
  StorageDeleteResult,
  StorageGetParams,
  StorageGetResult,
  StorageListItem,
  StorageListResult,
  StorageSetResult,
} from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { StorageGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import type { Scoped, StorageService } from "../storage-service.js";
import { canonicalJson, compareCodePoints, payloadEtag } from "./storage-canonical.js";
import { decodeCursor, encodeCursor } from "./storage-cursor.js";
import { namespaceId } from "./storage-namespace.js";
import { checkKvKey, checkKvPrefix } from "./storage-keys.js";
import { DEFAULT_STORAGE_LIMITS, effectiveQuota, ownMetadata } from "./storage-limits.js";
import type { StorageLimits } from "./storage-limits.js";
import { StorageQuota } from "./storage-quota.js";
import { isIntegerIn } from "./integer-range.js";

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
  const quota = options.quota ?? new StorageQuota({ limitBytes: limits.quotaBytes, clock });
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
    return row.expiresAtMs !== undefined && row.expiresAtMs <= now;
  }

  /** Removes a row and refunds its bytes (delete, or lazy reclaim of an expired row). */
  function drop(ns: Namespace, key: string, row: KvRow): void {
    ns.rows.delete(key);
    quota.charge(ns.userId, -row.sizeBytes);
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
  function chargeWrite(userId: string, deltaBytes: number, ctx: Ctx): void {
    const limit = effectiveQuota(quota.limitBytes, ctx.grant.quotaBytes);
    try {
      quota.charge(userId, deltaBytes, limit);
    } catch {
      sweepExpired(userId, clock());
      quota.charge(userId, deltaBytes, limit);
    }
  }

  function checkIfMatch(
    ifMatch: unknown,
    row: KvRow | undefined,
    key: string,
    method: string,
  ): void {
    if (ifMatch === undefined || ifMatch === null) return;
    if (typeof ifMatch !== "string") {
      throw catalogError(
        STORAGE_ERRORS.INVALID_REQUEST,
        `${method}: 'if_match' must be an etag string or null`,
      );
    }
    if (row === undefined || row.etag !== ifMatch) {
      throw catalogError(
        STORAGE_ERRORS.PRECONDITION_FAILED,
        row === undefined
          ? `${method}: if_match ${JSON.stringify(ifMatch)} but key ${JSON.stringify(key)} does not exist; pass if_match: null to create it`
          : `${method}: if_match ${JSON.stringify(ifMatch)} does not match the current etag of ${JSON.stringify(key)}; re-read and retry`,
        { key, currentEtag: row?.etag ?? null },
      );
    }
  }

  function readTtl(value: unknown, method: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isIntegerIn(value, 1, STORAGE_TTL_MAX_S)) {
      throw catalogError(
        STORAGE_ERRORS.INVALID_REQUEST,
        `${method}: 'ttl_seconds' must be an integer from 1 to ${STORAGE_TTL_MAX_S}`,
      );
    }
    return value;
  }

  function readMetadata(value: unknown, method: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw catalogError(
        STORAGE_ERRORS.INVALID_REQUEST,
        `${method}: 'metadata' must be an object or null`,
      );
    }
    const own = ownMetadata(value as Record<string, unknown>);
    return Object.keys(own).length === 0
      ? undefined
      : (JSON.parse(canonicalJson(own)) as Record<string, unknown>);
  }

  function readTags(value: unknown, method: string): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (
      !Array.isArray(value) ||
      value.length > STORAGE_MAX_TAGS ||
      !value.every((t) => typeof t === "string")
    ) {
      throw catalogError(
        STORAGE_ERRORS.INVALID_REQUEST,
        `${method}: 'tags' must be an array of at most ${STORAGE_MAX_TAGS} strings`,
      );
    }
    return value.length === 0 ? undefined : [...(value as string[])];
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
      if (!("value" in p) || p["value"] === undefined) {
        throw catalogError(
          STORAGE_ERRORS.INVALID_REQUEST,
          `${method}: 'value' is required (any JSON value; null is allowed)`,
        );
      }
      let payload: string;
      try {
        payload = canonicalJson(p["value"]);
      } catch (error) {
        throw catalogError(
          STORAGE_ERRORS.INVALID_REQUEST,
          `${method}: 'value' is not JSON`,
          undefined,
          {
            cause: error,
          },
        );
      }
      const sizeBytes = Buffer.byteLength(payload, "utf8");
      if (sizeBytes > limits.kvValueMaxBytes) {
        throw catalogError(
          STORAGE_ERRORS.VALUE_TOO_LARGE,
          `${method}: value of ${JSON.stringify(key)} is ${sizeBytes} bytes as canonical JSON; at most ${limits.kvValueMaxBytes}. Store large data with files/* instead`,
          { sizeBytes, maxBytes: limits.kvValueMaxBytes },
        );
      }
      const ttl = readTtl(p["ttl_seconds"], method);
      const metadata = readMetadata(p["metadata"], method);
      const tags = readTags(p["tags"], method);
      const ns = namespace(p["scope"], ctx, method);
      const now = clock();
      const current = live(ns, key, now);
      checkIfMatch(p["if_match"], current, key, method);
      // Quota first, so a refused write changes nothing.
      chargeWrite(ns.userId, sizeBytes - (current?.sizeBytes ?? 0), ctx);
      const generation = (current?.generation ?? ns.generations.get(key) ?? 0) + 1;
      ns.generations.delete(key);
      const row: KvRow = {
        payload,
        etag: payloadEtag(payload),
        generation,
        sizeBytes,
        updatedAtMs: now,
        ...(ttl === undefined ? {} : { expiresAtMs: now + ttl * 1000 }),
        ...(metadata === undefined ? {} : { metadata }),
        ...(tags === undefined ? {} : { tags }),
      };
      ns.rows.set(key, row);
      return { etag: row.etag, generation, size_bytes: sizeBytes };
    },

    async delete(params, ctx): Promise<StorageDeleteResult> {
      const method = "storage/delete";
      const p = params as Params;
      const key = checkKvKey(p["key"], method);
      const ns = namespace(p["scope"], ctx, method);
      const current = live(ns, key, clock());
      checkIfMatch(p["if_match"], current, key, method);
      if (current === undefined) {
        throw catalogError(
          STORAGE_ERRORS.NOT_FOUND,
          `${method}: key ${JSON.stringify(key)} does not exist`,
          { key },
        );
      }
      drop(ns, key, current);
      return { deleted: true };
    },

    async list(params, ctx): Promise<StorageListResult> {
      const method = "storage/list";
      const p = params as Params;
      const prefix = checkKvPrefix(p["prefix"], method);
      const after = decodeCursor(p["cursor"], method);
      const limitParam = p["limit"];
      if (limitParam !== undefined && limitParam !== null && typeof limitParam !== "number") {
        throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'limit' must be a number`);
      }
      const limit = clampStorageListLimit(
        (limitParam as number | null | undefined) ?? STORAGE_LIST_DEFAULT_LIMIT,
      );
      const ns = namespace(p["scope"], ctx, method);
      const now = clock();
      const keys: string[] = [];
      for (const [key, row] of ns.rows) {
        if (!key.startsWith(prefix)) continue;
        if (after !== undefined && compareCodePoints(key, after) <= 0) continue;
        if (expired(row, now)) {
          drop(ns, key, row);
          continue;
        }
        keys.push(key);
      }
      keys.sort(compareCodePoints);
      const page = keys.slice(0, limit);
      const items = page.map((key) => head(key, ns.rows.get(key) as KvRow));
      const last = page[page.length - 1];
      return {
        items,
        next_cursor: keys.length > limit && last !== undefined ? encodeCursor(last) : null,
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
