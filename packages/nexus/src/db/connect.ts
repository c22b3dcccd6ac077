// Opens the one database Nexus runs on: embedded SQLite (WAL) by default, PostgreSQL when the
// URL says so. Dialect-specific code stays in this file and id-column.ts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { LiteralLimitPlugin } from "./literal-limit-plugin.js";
import type { Database } from "./schema.js";

export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where it lives, with any password removed (safe to log). */
  location: string;
  /** Resolves when a trivial query succeeds. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DatabaseConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseConfigError";
  }
}

const PG_INT8_OID = 20;
const PG_POOL_MAX = 10;

export interface OpenDatabaseOptions {
  /** `postgres://…` / `postgresql://…`, `sqlite:<path>`, or undefined for the data dir. */
  url?: string | undefined;
  /** Data folder for the embedded default (`<dir>/nexus.sqlite`). */
  dataDir: string;
}

export function openDatabase(opts: OpenDatabaseOptions): DatabaseHandle {
  const url = opts.url?.trim();
  if (url && /^postgres(ql)?:\/\//i.test(url)) return openPostgres(url);
  if (url && !url.startsWith("sqlite:")) {
    throw new DatabaseConfigError(
      `unsupported database URL scheme in '${safeUrl(url)}' (use postgres://… or sqlite:<path>)`,
    );
  }
  let file: string;
  if (url) file = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
  else {
    mkdirSync(opts.dataDir, { recursive: true });
    file = join(opts.dataDir, "nexus.sqlite");
  }
  return openSqlite(file);
}

/** The better-sqlite3 connection under each Kysely instance openSqlite made. */
const SQLITE_CONNECTIONS = new WeakMap<Kysely<Database>, BetterSqlite3.Database>();

/**
 * The connection under `db` when openSqlite opened it, for the hot paths that run prepared
 * statements on it directly (sqlite-kv-rows.ts); undefined for PostgreSQL. Whoever uses it must
 * hold Kysely's connection (`db.connection()`) or see `inTransaction` false, since Kysely
 * transactions on the one connection span awaits.
 */
export function sqliteConnectionOf(db: Kysely<Database>): BetterSqlite3.Database | undefined {
  return SQLITE_CONNECTIONS.get(db);
}

export function openSqlite(file: string): DatabaseHandle {
  const conn = new BetterSqlite3(file);
  conn.pragma("journal_mode = WAL");
  // Durable against a crash of the process (kill -9: the WAL is in the OS's hands once a commit
  // returns); only an OS crash or power loss can lose the last commits, which FULL would keep.
  conn.pragma("synchronous = NORMAL");
  conn.pragma("foreign_keys = ON");
  conn.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(conn) }),
    plugins: [new LiteralLimitPlugin()],
  });
  SQLITE_CONNECTIONS.set(db, conn);
  return {
    db,
    dialect: "sqlite",
    location: file,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Distinct SQL texts kept prepared (texts vary with `in (?, ?, …)` lists; the rest repeat). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely sees it, with `prepare` answered from a cache: Kysely prepares every
 * query it runs, and on SQLite preparing costs as much as running (it was a sixth of a
 * server's time under KV load). Reusing a statement is safe: Kysely runs one query at a time on
 * its one connection, and a streamed query holds the connection until it ends.
 */
function withStatementCache(conn: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => conn.close(),
    prepare(text: string): BetterSqlite3.Statement {
      let stmt = cache.get(text);
      if (stmt === undefined) {
        stmt = conn.prepare(text);
        // Oldest first out: a Map iterates in insertion order.
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(text, stmt);
      }
      return stmt;
    },
  };
}

export function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_MAX,
    // Epoch-millisecond bigints come back as numbers, matching SQLite.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === PG_INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    location: safeUrl(url),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** The URL without its password, for logs and errors. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  }
}
