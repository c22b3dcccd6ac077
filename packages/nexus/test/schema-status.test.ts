// schemaStatus(): what a database has applied and what is pending, including the moment another
// migrate run creates the migration table between this one's select and its look at the tables
// (two `anna-nexus migrate` at once on PostgreSQL did this in CI).
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATION_TABLE, MIGRATIONS, migrateToLatest } from "../src/db/migrate.js";
import { schemaStatus } from "../src/db/schema-status.js";

const ALL = Object.keys(MIGRATIONS);
const open: Kysely<unknown>[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy();
});

/**
 * A SQLite database whose first select of the migration table fails as if the table were not
 * there yet, while `meanwhile` (another run) makes it exist before anyone looks again.
 */
function racingDatabase(meanwhile: (conn: BetterSqlite3.Database) => void) {
  const conn = new BetterSqlite3(":memory:");
  let raced = false;
  const database = {
    close: () => conn.close(),
    prepare(text: string) {
      if (!raced && text === `select name from "${MIGRATION_TABLE}"`) {
        raced = true;
        meanwhile(conn);
        throw new Error(`no such table: ${MIGRATION_TABLE}`);
      }
      return conn.prepare(text);
    },
  };
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: database as unknown as BetterSqlite3.Database }),
  });
  open.push(db);
  return db;
}

describe("schemaStatus", () => {
  it("on a database no Nexus has migrated, has everything pending", async () => {
    const db = racingDatabase(() => {});
    const status = await schemaStatus(db);
    expect(status.applied).toEqual([]);
    expect(status.pending).toEqual(ALL);
  });

  it("after a migration, has nothing pending", async () => {
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }),
    });
    open.push(db);
    await migrateToLatest(db);
    expect(await schemaStatus(db)).toMatchObject({ applied: ALL, pending: [], unknown: [] });
  });

  it("reads the migration table again when another run created it meanwhile", async () => {
    const db = racingDatabase((conn) => {
      conn.exec(`create table "${MIGRATION_TABLE}" (name text primary key, timestamp text)`);
      conn.prepare(`insert into "${MIGRATION_TABLE}" values (?, ?)`).run(ALL[0], "now");
    });
    const status = await schemaStatus(db);
    expect(status.applied).toEqual([ALL[0]]);
    expect(status.pending).toEqual(ALL.slice(1));
  });
});
