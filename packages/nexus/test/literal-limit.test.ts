// LiteralLimitPlugin: on SQLite an integer LIMIT is written into the SQL text (a bound LIMIT makes
// SQLite re-prepare the statement on every run), and queries still return what they should.
import { type Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openSqlite } from "../src/db/connect.js";

const open: DatabaseHandle[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
function memory(): DatabaseHandle {
  const h = openSqlite(":memory:");
  open.push(h);
  return h;
}

describe("LIMIT on SQLite", () => {
  it("writes an integer LIMIT as literal text and keeps OFFSET and other values bound", () => {
    const { db } = memory();
    const q = db.selectFrom("users").select("id").where("email", "=", "a@x.io").limit(5).offset(10);
    const compiled = q.compile();
    expect(compiled.sql).toBe('select "id" from "users" where "email" = ? limit 5 offset ?');
    expect(compiled.parameters).toEqual(["a@x.io", 10]);
  });

  it("leaves a LIMIT that is not a safe integer bound, as Kysely built it", () => {
    const { db } = memory();
    for (const limit of [1.5, Number.MAX_SAFE_INTEGER + 2, "2" as unknown as number]) {
      const compiled = db.selectFrom("users").select("id").limit(limit).compile();
      expect(compiled.sql).toBe('select "id" from "users" limit ?');
      expect(compiled.parameters).toEqual([limit]);
    }
    const expr = db
      .selectFrom("users")
      .select("id")
      .limit(sql<number>`1 + 1`)
      .compile();
    expect(expr.sql).toBe('select "id" from "users" limit 1 + 1');
  });

  it("returns the rows a bound LIMIT would, page after page", async () => {
    const { db } = memory();
    await sql`create table t (n integer primary key)`.execute(db);
    await sql`insert into t (n) values (1), (2), (3), (4), (5)`.execute(db);
    const page = (limit: number, offset: number) =>
      (db as unknown as Kysely<{ t: { n: number } }>)
        .selectFrom("t")
        .select("n")
        .orderBy("n")
        .limit(limit)
        .offset(offset)
        .execute();
    expect((await page(2, 0)).map((r) => r.n)).toEqual([1, 2]);
    expect((await page(2, 2)).map((r) => r.n)).toEqual([3, 4]);
    expect((await page(3, 4)).map((r) => r.n)).toEqual([5]);
  });
});

describe("LIMIT on SQLite in a subquery", () => {
  // Kysely runs the plugin on a subquery builder too when it becomes part of the outer query.
  it("writes a subquery's integer LIMIT as literal text as well", () => {
    const { db } = memory();
    const compiled = db
      .selectFrom("users")
      .select("id")
      .where("id", "in", db.selectFrom("sessions").select("user_id").limit(3))
      .limit(2)
      .compile();
    expect(compiled.sql).toBe(
      'select "id" from "users" where "id" in (select "user_id" from "sessions" limit 3) limit 2',
    );
    expect(compiled.parameters).toEqual([]);
  });
});
