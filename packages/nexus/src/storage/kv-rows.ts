// The row operations the SQL KV store (sql-kv-store.ts) is written over, so its rules exist once
// while each database runs them the cheapest way it can: Kysely queries here (PostgreSQL, and
// SQLite opened some other way), prepared better-sqlite3 statements in sqlite-kv-rows.ts.
import type { Kysely } from "kysely";
import type { Database, StorageKvTable } from "../db/schema.js";
import { sqliteConnectionOf } from "../db/connect.js";
import { sqliteKvDb } from "./sqlite-kv-rows.js";
import {
  type Db,
  type OwnerColumns,
  type UsageRow,
  addUsage,
  lockUsage,
  reservedBytes,
} from "./sql-usage.js";

export type KvRow = Omit<StorageKvTable, "id"> & { id: number };
/** What a set writes into a row (insert adds owner, key and created_at). */
export type KvFields = Pick<
  KvRow,
  | "payload"
  | "etag"
  | "generation"
  | "size_bytes"
  | "metadata"
  | "tags"
  | "updated_at"
  | "expires_at"
  | "deleted_at"
>;

export interface KvRows {
  /** Locks (creating if needed) the user's usage row for the rest of the transaction. */
  lockUsage(userId: string, now: number): Promise<UsageRow>;
  find(o: OwnerColumns, key: string): Promise<KvRow | undefined>;
  reservedBytes(userId: string, now: number): Promise<number>;
  insert(o: OwnerColumns, key: string, createdAt: number, fields: KvFields): Promise<void>;
  update(id: number, fields: KvFields): Promise<void>;
  markDeleted(id: number, at: number): Promise<void>;
  addUsage(userId: string, deltaBytes: number, deltaEntries: number): Promise<void>;
  /** The user's rows still counted in usage whose TTL has run out. */
  expired(userId: string, now: number): Promise<Pick<KvRow, "id" | "size_bytes">[]>;
  /** Marks rows deleted as of their expiry. */
  markExpired(ids: number[]): Promise<void>;
}

export interface KvDb {
  /** One read, outside any transaction. */
  read<T>(fn: (rows: KvRows) => Promise<T>): Promise<T>;
  /** One write transaction: all of it commits or none. */
  write<T>(fn: (rows: KvRows) => Promise<T>): Promise<T>;
}

function kyselyKvRows(trx: Db): KvRows {
  return {
    lockUsage: (userId, now) => lockUsage(trx, userId, now),
    find: (o, key) =>
      trx
        .selectFrom("storage_kv")
        .selectAll()
        .where((eb) => eb.and({ ...o, key }))
        .executeTakeFirst() as Promise<KvRow | undefined>,
    reservedBytes: (userId, now) => reservedBytes(trx, userId, now),
    async insert(o, key, createdAt, fields) {
      await trx
        .insertInto("storage_kv")
        .values({ ...o, key, created_at: createdAt, ...fields })
        .execute();
    },
    async update(id, fields) {
      await trx.updateTable("storage_kv").set(fields).where("id", "=", id).execute();
    },
    async markDeleted(id, at) {
      await trx.updateTable("storage_kv").set({ deleted_at: at }).where("id", "=", id).execute();
    },
    addUsage: (userId, deltaBytes, deltaEntries) => addUsage(trx, userId, deltaBytes, deltaEntries),
    expired: (userId, now) =>
      trx
        .selectFrom("storage_kv")
        .select(["id", "size_bytes"])
        .where("user_id", "=", userId)
        .where("deleted_at", "is", null)
        .where("expires_at", "<=", now)
        .execute(),
    async markExpired(ids) {
      if (ids.length === 0) return;
      await trx
        .updateTable("storage_kv")
        .set((eb) => ({ deleted_at: eb.ref("expires_at") }))
        .where("id", "in", ids)
        .execute();
    },
  };
}

/** The KV rows of `db`: prepared statements when it is an openSqlite database, else Kysely. */
export function kvDb(db: Kysely<Database>): KvDb {
  const conn = sqliteConnectionOf(db);
  if (conn) return sqliteKvDb(db, conn);
  const rows = kyselyKvRows(db);
  return {
    read: (fn) => fn(rows),
    write: (fn) => db.transaction().execute((trx) => fn(kyselyKvRows(trx))),
  };
}
