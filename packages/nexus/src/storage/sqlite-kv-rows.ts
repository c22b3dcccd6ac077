// The KV rows on SQLite as prepared better-sqlite3 statements: the same SQL Kysely would build
// for kv-rows.ts, compiled once instead of built, compiled and prepared on every call (that was
// most of a set's cost: ~7 prepares per set).
//
// The statements run on the connection under Kysely, which Kysely also uses, across awaits, for
// its own transactions (the files store, the account stores). So a write takes Kysely's connection
// first (`db.connection()`, its mutex): no Kysely transaction is open while ours runs, and no
// Kysely query runs inside ours. A read runs at once unless a transaction is open on the
// connection (it would see that transaction's uncommitted rows), then it waits its turn too.
//
// Writes commit in groups (D-nexus-171): the writes that arrive while the event loop is busy
// (16 clients' requests read in one poll) run one after another in one transaction, each in a
// savepoint of its own, so one that throws rolls back alone; every caller is answered once the
// group committed, so nothing is acknowledged before it is durable. A commit and its WAL frames
// were an eighth of a REST set's server CPU; a group pays them once.
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { KvDb, KvFields, KvRow, KvRows } from "./kv-rows.js";

const SQL = {
  lockUsage:
    "insert into storage_usage (user_id, bytes_used, entry_count, updated_at) values (?, 0, 0, ?) " +
    "on conflict (user_id) do update set updated_at = excluded.updated_at " +
    "returning bytes_used, entry_count",
  find: "select * from storage_kv where user_id = ? and scope = ? and owner_id = ? and key = ?",
  reserved:
    "select coalesce(sum(reserved_bytes), 0) as n from storage_uploads " +
    "where user_id = ? and expires_at > ?",
  insert:
    "insert into storage_kv (user_id, scope, owner_id, key, created_at, payload, etag, generation, " +
    "size_bytes, metadata, tags, updated_at, expires_at, deleted_at) values (@user_id, @scope, " +
    "@owner_id, @key, @created_at, @payload, @etag, @generation, @size_bytes, @metadata, @tags, " +
    "@updated_at, @expires_at, @deleted_at)",
  update:
    "update storage_kv set payload = @payload, etag = @etag, generation = @generation, " +
    "size_bytes = @size_bytes, metadata = @metadata, tags = @tags, updated_at = @updated_at, " +
    "expires_at = @expires_at, deleted_at = @deleted_at where id = @id",
  markDeleted: "update storage_kv set deleted_at = ? where id = ?",
  addUsage:
    "update storage_usage set bytes_used = bytes_used + ?, entry_count = entry_count + ? " +
    "where user_id = ?",
  expired:
    "select id, size_bytes from storage_kv " +
    "where user_id = ? and deleted_at is null and expires_at <= ?",
  markExpired: "update storage_kv set deleted_at = expires_at where id = ?",
  begin: "begin immediate",
  commit: "commit",
  rollback: "rollback",
  savepoint: "savepoint kv_write",
  release: "release kv_write",
  rollbackToSavepoint: "rollback to kv_write",
} as const;

/** Writes one transaction takes at most; the rest wait for the next group. */
export const KV_WRITE_GROUP_MAX = 64;

interface QueuedWrite {
  fn: (rows: KvRows) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Statements = { [K in keyof typeof SQL]: BetterSqlite3.Statement };

function prepareAll(conn: BetterSqlite3.Database): Statements {
  return Object.fromEntries(
    Object.entries(SQL).map(([name, sql]) => [name, conn.prepare(sql)]),
  ) as Statements;
}

function rowsOf(s: Statements): KvRows {
  return {
    async lockUsage(userId, now) {
      const r = s.lockUsage.get(userId, now) as { bytes_used: number; entry_count: number };
      return { bytes_used: Number(r.bytes_used), entry_count: Number(r.entry_count) };
    },
    async find(o, key) {
      return s.find.get(o.user_id, o.scope, o.owner_id, key) as KvRow | undefined;
    },
    async reservedBytes(userId, now) {
      return Number((s.reserved.get(userId, now) as { n: number }).n);
    },
    async insert(o, key, createdAt, fields: KvFields) {
      s.insert.run({ ...o, key, created_at: createdAt, ...fields });
    },
    async update(id, fields) {
      s.update.run({ ...fields, id });
    },
    async markDeleted(id, at) {
      s.markDeleted.run(at, id);
    },
    async addUsage(userId, deltaBytes, deltaEntries) {
      if (deltaBytes === 0 && deltaEntries === 0) return;
      s.addUsage.run(deltaBytes, deltaEntries, userId);
    },
    async expired(userId, now) {
      return s.expired.all(userId, now) as Pick<KvRow, "id" | "size_bytes">[];
    },
    async markExpired(ids) {
      for (const id of ids) s.markExpired.run(id);
    },
  };
}

export function sqliteKvDb(db: Kysely<Database>, conn: BetterSqlite3.Database): KvDb {
  // Prepared on first use: the tables exist only once migrations ran.
  let prepared: { s: Statements; rows: KvRows } | undefined;
  const get = () => {
    if (!prepared) {
      const s = prepareAll(conn);
      prepared = { s, rows: rowsOf(s) };
    }
    return prepared;
  };
  const queue: QueuedWrite[] = [];
  let scheduled = false;
  return {
    read(fn) {
      if (!conn.inTransaction) return fn(get().rows);
      return db.connection().execute(() => fn(get().rows));
    },
    write<T>(fn: (rows: KvRows) => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          // After the poll phase: every request read in this turn of the loop joins the group.
          setImmediate(flush);
        }
      });
    },
  };

  function flush(): void {
    scheduled = false;
    const group = queue.splice(0, KV_WRITE_GROUP_MAX);
    if (queue.length > 0) {
      scheduled = true;
      setImmediate(flush);
    }
    void db
      .connection()
      .execute(() => commitGroup(group))
      .catch((error: unknown) => {
        for (const w of group) w.reject(error);
      });
  }

  async function commitGroup(group: QueuedWrite[]): Promise<void> {
    const { s, rows } = get();
    const outcomes: { ok: boolean; value: unknown }[] = [];
    s.begin.run();
    try {
      for (const w of group) {
        s.savepoint.run();
        try {
          outcomes.push({ ok: true, value: await w.fn(rows) });
          s.release.run();
        } catch (error) {
          s.rollbackToSavepoint.run();
          s.release.run();
          outcomes.push({ ok: false, value: error });
        }
      }
      s.commit.run();
    } catch (error) {
      if (conn.inTransaction) s.rollback.run();
      throw error;
    }
    group.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.value);
    });
  }
}
