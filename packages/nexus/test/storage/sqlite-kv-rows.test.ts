// The SQLite KV statements share Kysely's one connection: a KV write must never run inside a
// Kysely transaction that is open across an await (its rollback would take the acknowledged
// write with it), and a read must never see that transaction's uncommitted rows. Writes that
// arrive together commit in one transaction, each in a savepoint (D-nexus-171).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { openSqlite, sqliteConnectionOf } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { KV_WRITE_GROUP_MAX } from "../../src/storage/sqlite-kv-rows.js";
import { ctxFor, sqlStorage } from "../helpers/storage.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open() {
  const dir = mkdtempSync(join(tmpdir(), "anna-nexus-kvrows-"));
  dirs.push(dir);
  const file = join(dir, "nexus.sqlite");
  const h = openSqlite(file);
  await migrateToLatest(h.db);
  return Object.assign(h, { file });
}

/** Counts the commits the KV statements make on `conn` (they are prepared on first use). */
function countCommits(conn: BetterSqlite3.Database): { commits: number } {
  const seen = { commits: 0 };
  const prepare = conn.prepare.bind(conn);
  conn.prepare = ((sql: string) => {
    const st = prepare(sql);
    if (sql !== "commit") return st;
    const run = st.run.bind(st);
    st.run = ((...args: unknown[]) => {
      seen.commits++;
      return run(...(args as []));
    }) as typeof st.run;
    return st;
  }) as typeof conn.prepare;
  return seen;
}

describe("SQLite KV statements beside Kysely transactions", () => {
  it("runs on the connection openSqlite made", async () => {
    const h = await open();
    try {
      expect(sqliteConnectionOf(h.db)).toBeDefined();
    } finally {
      await h.close();
    }
  });

  it("keeps a KV write made while a Kysely transaction that rolls back is open", async () => {
    const h = await open();
    try {
      const { kv } = await sqlStorage(h, manualClock());
      const a = ctxFor("1");
      await kv.set({ scope: "user", key: "seen", value: "before" }, a);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let inside!: () => void;
      const opened = new Promise<void>((r) => (inside = r));
      const rolledBack = h.db
        .transaction()
        .execute(async (trx) => {
          // An uncommitted write of the very row the KV calls touch.
          await trx
            .updateTable("storage_kv")
            .set({ payload: '"uncommitted"' })
            .where("key", "=", "seen")
            .execute();
          inside();
          await held;
          throw new Error("roll back");
        })
        .catch((err: Error) => err.message);
      await opened;
      // Both wait for the transaction: started now, answered after its rollback.
      const read = kv.get({ scope: "user", key: "seen" }, a);
      const write = kv.set({ scope: "user", key: "new", value: { n: 1 } }, a);
      await new Promise((r) => setTimeout(r, 30));
      release();
      expect(await rolledBack).toBe("roll back");
      expect(await read).toMatchObject({ exists: true, value: "before" });
      expect(await write).toMatchObject({ generation: 1 });
      expect(await kv.get({ scope: "user", key: "new" }, a)).toMatchObject({
        exists: true,
        value: { n: 1 },
      });
      const usage = await h.db
        .selectFrom("storage_usage")
        .select("entry_count")
        .executeTakeFirstOrThrow();
      expect(usage.entry_count).toBe(2);
    } finally {
      await h.close();
    }
  });

  it("rolls back a KV write that fails halfway, leaving the connection usable", async () => {
    const h = await open();
    try {
      const { kv } = await sqlStorage(h, manualClock(), { limits: { quotaEntries: 1 } });
      const a = ctxFor("1");
      await kv.set({ scope: "user", key: "one", value: 1 }, a);
      await expect(kv.set({ scope: "user", key: "two", value: 2 }, a)).rejects.toMatchObject({
        code: -32024,
      });
      expect(sqliteConnectionOf(h.db)!.inTransaction).toBe(false);
      expect(await kv.get({ scope: "user", key: "two" }, a)).toMatchObject({ exists: false });
      expect((await kv.list({ scope: "user" }, a)).items.map((i) => i.key)).toEqual(["one"]);
    } finally {
      await h.close();
    }
  });

  it("commits writes that arrive together in one transaction, where one that fails fails alone", async () => {
    const h = await open();
    try {
      const seen = countCommits(sqliteConnectionOf(h.db)!);
      const { kv } = await sqlStorage(h, manualClock(), { limits: { quotaEntries: 10 } });
      const a = ctxFor("1");
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => kv.set({ scope: "user", key: `k${i}`, value: i }, a)),
      );
      expect(seen.commits).toBe(1);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(10);
      const refused = outcomes.filter((o) => o.status === "rejected");
      expect(refused).toHaveLength(2);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: -32024 });
      // Answered only once committed: another connection already sees every acknowledged write.
      const other = new BetterSqlite3(h.file, { readonly: true });
      try {
        const keys = other.prepare("select key from storage_kv order by key").pluck().all();
        expect(keys).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"]);
        const usage = other.prepare("select entry_count from storage_usage").pluck().get();
        expect(usage).toBe(10);
      } finally {
        other.close();
      }
      expect(sqliteConnectionOf(h.db)!.inTransaction).toBe(false);
    } finally {
      await h.close();
    }
  });

  it("rolls back a failed write's own rows only, keeping the rows of the group around it", async () => {
    const h = await open();
    try {
      const { kv } = await sqlStorage(h, manualClock());
      const a = ctxFor("1");
      const first = await kv.set({ scope: "user", key: "cas", value: 0 }, a);
      const [before, stale, after] = await Promise.allSettled([
        kv.set({ scope: "user", key: "before", value: 1 }, a),
        kv.set({ scope: "user", key: "cas", value: 9, if_match: "stale-etag" }, a),
        kv.set({ scope: "user", key: "cas", value: 2, if_match: first.etag }, a),
      ]);
      expect(before.status).toBe("fulfilled");
      expect(stale).toMatchObject({ status: "rejected", reason: { code: -32023 } });
      expect(after.status).toBe("fulfilled");
      expect(await kv.get({ scope: "user", key: "cas" }, a)).toMatchObject({ value: 2 });
      expect(await kv.get({ scope: "user", key: "before" }, a)).toMatchObject({ value: 1 });
    } finally {
      await h.close();
    }
  });

  it(`splits a crowd into groups of at most ${KV_WRITE_GROUP_MAX} writes`, async () => {
    const h = await open();
    try {
      const seen = countCommits(sqliteConnectionOf(h.db)!);
      const { kv } = await sqlStorage(h, manualClock());
      const a = ctxFor("1");
      const n = KV_WRITE_GROUP_MAX * 2 + 1;
      await Promise.all(
        Array.from({ length: n }, (_, i) => kv.set({ scope: "user", key: `k${i}`, value: i }, a)),
      );
      expect(seen.commits).toBe(3);
      expect((await kv.list({ scope: "user", limit: 1000 }, a)).items).toHaveLength(n);
    } finally {
      await h.close();
    }
  });
});
