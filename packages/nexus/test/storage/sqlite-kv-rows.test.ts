// The SQLite KV statements share Kysely's one connection: a KV write must never run inside a
// Kysely transaction that is open across an await (its rollback would take the acknowledged
// write with it), and a read must never see that transaction's uncommitted rows.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { openSqlite, sqliteConnectionOf } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { ctxFor, sqlStorage } from "../helpers/storage.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open() {
  const dir = mkdtempSync(join(tmpdir(), "anna-nexus-kvrows-"));
  dirs.push(dir);
  const h = openSqlite(join(dir, "nexus.sqlite"));
  await migrateToLatest(h.db);
  return h;
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
});
