// Durability of acknowledged KV writes: a real `anna-nexus start` process on SQLite is killed
// with SIGKILL while writes are in flight; after a restart on the same data folder every write
// the server answered 200 for is there with its value, and the database passes its integrity check.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const WRITES = 1000;
const CONCURRENCY = 8;
/** Kill once this many writes were acknowledged: the rest are in flight or not yet sent. */
const KILL_AFTER_ACKS = 600;

async function listening(data: string) {
  const p = startNexus(["start", "--port", "0", "--data", data]);
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

describe("kill -9 during acknowledged writes (real process, SQLite)", () => {
  it("keeps every acknowledged write and an intact database after restart", async () => {
    const data = mkdtempSync(join(tmpdir(), "anna-nexus-crash-"));
    dirs.push(data);
    const first = await listening(data);
    const signup = await fetch(`${first.url}/api/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "crash@example.com", password: "correct horse battery" }),
    });
    expect(signup.status).toBe(201);
    const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")?.[0] ?? "";

    const acked = new Map<string, number>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < WRITES && !killed) {
        const i = next++;
        try {
          const res = await fetch(`${first.url}/api/v1/storage/kv?scope=user`, {
            method: "PUT",
            headers: { "content-type": "application/json", cookie },
            body: JSON.stringify({ key: `k/${i}`, value: { i, pad: "x".repeat(200) } }),
          });
          if (res.status === 200) acked.set(`k/${i}`, i);
          else throw new Error(`write ${i}: ${res.status} ${await res.text()}`);
        } catch (err) {
          if (!killed) throw err;
        }
        if (!killed && acked.size >= KILL_AFTER_ACKS) {
          killed = true;
          first.p.signal("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(await first.p.exited()).toBeNull();
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    const second = await listening(data);
    expect(second.p.stderr()).toContain('"migrations_applied":[]');
    const signin = await fetch(`${second.url}/api/v1/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "crash@example.com", password: "correct horse battery" }),
    });
    const cookie2 = /anna_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const missing: string[] = [];
    const keys = [...acked.keys()];
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map(async (key) => {
          const res = await fetch(
            `${second.url}/api/v1/storage/kv?scope=user&key=${encodeURIComponent(key)}`,
            { headers: { cookie: cookie2 } },
          );
          const body = (await res.json()) as { value: { i: number } | null };
          if (body.value?.i !== acked.get(key)) missing.push(key);
        }),
      );
    }
    expect(missing).toEqual([]);
    second.p.signal("SIGTERM");
    expect(await second.p.exited()).toBe(0);

    const db = new BetterSqlite3(join(data, "nexus.sqlite"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const usage = db.prepare("select entry_count from storage_usage").get() as {
        entry_count: number;
      };
      const rows = db
        .prepare("select count(*) as n from storage_kv where deleted_at is null")
        .get() as {
        n: number;
      };
      // The quota ledger committed with the rows it counts.
      expect(usage.entry_count).toBe(rows.n);
    } finally {
      db.close();
    }
  }, 120_000);
});
