// What the SQL KV and files stores share: the columns a (scope, owner) maps to, the per-user
// usage row that every write locks first, and list pages in the code-point key order of both
// dialects.
//
// Atomic quotas without a distributed lock: every write transaction starts with an upsert of
// the user's `storage_usage` row. In PostgreSQL that takes the row lock, so two writes of one
// user (16 concurrent writers, parallel upload begins) run one after the other and each sees
// what the previous committed; in SQLite the upsert takes the database write lock at the start
// of the transaction, which has the same effect and avoids a read-to-write lock upgrade.
import {
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type Transaction,
  sql,
} from "kysely";
import { type StorageOwner, pageOfKeys } from "@anna-ai/executa-host/storage";
import { isPostgres } from "../db/id-column.js";
import type { Database } from "../db/schema.js";

export type Db = Kysely<Database> | Transaction<Database>;

/** The (user_id, scope, owner_id) columns of a row. */
export interface OwnerColumns {
  user_id: string;
  scope: string;
  owner_id: string;
}

export function ownerColumns(owner: StorageOwner): OwnerColumns {
  switch (owner.scope) {
    case "user":
      return { user_id: owner.userId, scope: "user", owner_id: "" };
    case "tool":
      return { user_id: owner.userId, scope: "tool", owner_id: owner.toolId };
    case "app":
      return { user_id: owner.userId, scope: "app", owner_id: owner.appId };
  }
}

export interface UsageRow {
  bytes_used: number;
  entry_count: number;
}

/** Locks (creating if needed) the user's usage row for the rest of the transaction. */
export async function lockUsage(trx: Db, userId: string, now: number): Promise<UsageRow> {
  const row = await trx
    .insertInto("storage_usage")
    .values({ user_id: userId, bytes_used: 0, entry_count: 0, updated_at: now })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ updated_at: now }))
    .returning(["bytes_used", "entry_count"])
    .executeTakeFirstOrThrow();
  return { bytes_used: Number(row.bytes_used), entry_count: Number(row.entry_count) };
}

export async function addUsage(
  trx: Db,
  userId: string,
  deltaBytes: number,
  deltaEntries: number,
): Promise<void> {
  if (deltaBytes === 0 && deltaEntries === 0) return;
  await trx
    .updateTable("storage_usage")
    .set((eb) => ({
      bytes_used: eb("bytes_used", "+", deltaBytes),
      entry_count: eb("entry_count", "+", deltaEntries),
    }))
    .where("user_id", "=", userId)
    .execute();
}

/** Bytes held by the user's unfinished uploads whose reservation has not lapsed. */
export async function reservedBytes(
  trx: Db,
  userId: string,
  now: number,
  excludingUploadId?: string,
): Promise<number> {
  let q = trx
    .selectFrom("storage_uploads")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("reserved_bytes"), sql<number>`0`).as("n"))
    .where("user_id", "=", userId)
    .where("expires_at", ">", now);
  if (excludingUploadId !== undefined) q = q.where("upload_id", "!=", excludingUploadId);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A text column compared in code-point order: SQLite's BINARY collation already is (UTF-8 byte
 * order), PostgreSQL's database collation may not be, so it gets `COLLATE "C"`.
 */
export function codePointOrder(db: Db, column: "key" | "path"): Expression<string> {
  return isPostgres(db as Kysely<unknown>)
    ? sql<string>`${sql.ref(column)} collate "C"`
    : sql.ref(column);
}

/** `column` starts with `prefix` (literal: no LIKE wildcards). */
export function startsWith(column: "key" | "path", prefix: string): Expression<boolean> {
  return sql<boolean>`substr(${sql.ref(column)}, 1, ${[...prefix].length}) = ${prefix}`;
}

export interface PageRequest {
  /** Literal prefix of `column` ("" for all). */
  prefix: string;
  /** The decoded cursor: the last key or path of the previous page. */
  after: string | undefined;
  limit: number;
}

/**
 * One list page of `q`'s rows: those whose `column` starts with the prefix and sorts after the
 * cursor, in code-point order, and the cursor of the next page (null on the last).
 */
export async function codePointPage<C extends "key" | "path", R extends Record<C, string>>(
  db: Db,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table with `column`
  query: SelectQueryBuilder<Database, any, R>,
  column: C,
  { prefix, after, limit }: PageRequest,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  let q = query;
  if (prefix !== "") q = q.where(startsWith(column, prefix));
  if (after !== undefined) q = q.where(codePointOrder(db, column), ">", after);
  const found = await q
    .orderBy(codePointOrder(db, column))
    .limit(limit + 1)
    .execute();
  const byName = new Map<string, R>((found as R[]).map((r) => [r[column], r]));
  const { page, nextCursor } = pageOfKeys([...byName.keys()], limit);
  return { rows: page.map((name) => byName.get(name) as R), nextCursor };
}
