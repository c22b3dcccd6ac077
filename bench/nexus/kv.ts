// KV through Nexus's REST API against the same statements on a bare better-sqlite3 connection.
//
//   npm run bench:nexus:kv                 # build, then ~30 s on 2 cores
//   npx tsx bench/nexus/kv.ts --n 2000 --seconds 5
//
// Baseline `bare`: one better-sqlite3 connection (WAL, synchronous=NORMAL, as Nexus opens it)
// running exactly the statements one `storage/set` runs (lock the usage row, read the key, sum
// live reservations, upsert the row, charge the usage, in one transaction) and the one `get`
// runs. `service`: the SQL store called in-process (Kysely, the storage rules). `rest`: the
// real `anna-nexus start` process over HTTP/1.1 keep-alive on 127.0.0.1, signed in with a session.
// Printed: per-call latency (median), overhead per call against `bare`, and writes/s with 16
// concurrent clients (target ≥ 5,000/s on SQLite).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import { openDatabase } from "../../packages/nexus/src/db/connect.js";
import { migrateToLatest } from "../../packages/nexus/src/db/migrate.js";
import { createSqlStorageService } from "../../packages/nexus/src/storage/sql-kv-store.js";

const { values: args } = parseArgs({
  options: {
    n: { type: "string", default: "1000" },
    seconds: { type: "string", default: "3" },
    clients: { type: "string", default: "16" },
  },
});
const N = Number(args.n);
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const BIN = new URL("../../packages/nexus/bin/anna-nexus.js", import.meta.url).pathname;
const VALUE = { n: 1, note: "x".repeat(100) };

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-bench-kv-"));
  dirs.push(d);
  return d;
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function timeEach(n: number, fn: (i: number) => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  return median(samples);
}

async function throughput(
  clients: number,
  seconds: number,
  fn: (c: number, i: number) => Promise<unknown>,
) {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; Date.now() < until; i++) {
        await fn(c, i);
        done++;
      }
    }),
  );
  return done / seconds;
}

/** The bare baseline: the statements of one set/get, prepared once. */
async function bare() {
  const dir = tmp();
  const h = openDatabase({ dataDir: dir });
  await migrateToLatest(h.db);
  await h.close();
  const conn = new BetterSqlite3(join(dir, "nexus.sqlite"));
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  const lock = conn.prepare(
    "insert into storage_usage (user_id, bytes_used, entry_count, updated_at) values (?, 0, 0, ?) on conflict (user_id) do update set updated_at = excluded.updated_at returning bytes_used, entry_count",
  );
  const find = conn.prepare(
    "select * from storage_kv where user_id = ? and scope = ? and owner_id = ? and key = ?",
  );
  const reserved = conn.prepare(
    "select coalesce(sum(reserved_bytes), 0) as n from storage_uploads where user_id = ? and expires_at > ?",
  );
  const insert = conn.prepare(
    "insert into storage_kv (user_id, scope, owner_id, key, payload, etag, generation, size_bytes, metadata, tags, created_at, updated_at, expires_at, deleted_at) values (?, 'user', '', ?, ?, ?, 1, ?, null, null, ?, ?, null, null)",
  );
  const update = conn.prepare(
    "update storage_kv set payload = ?, etag = ?, generation = generation + 1, size_bytes = ?, updated_at = ? where id = ?",
  );
  const charge = conn.prepare(
    "update storage_usage set bytes_used = bytes_used + ?, entry_count = entry_count + ? where user_id = ?",
  );
  const payload = JSON.stringify(VALUE);
  const set = conn.transaction((key: string) => {
    const now = Date.now();
    lock.get("1", now);
    const row = find.get("1", "user", "", key) as { id: number } | undefined;
    reserved.get("1", now);
    if (row) update.run(payload, "e", payload.length, now, row.id);
    else insert.run("1", key, payload, "e", payload.length, now, now);
    charge.run(row ? 0 : payload.length, row ? 0 : 1, "1");
  });
  const setUs = await timeEach(N, (i) => set(`k/${i % 100}`));
  const getUs = await timeEach(N, (i) => find.get("1", "user", "", `k/${i % 100}`));
  const wps = await throughput(CLIENTS, SECONDS, async (c, i) => set(`c${c}/${i % 100}`));
  conn.close();
  return { setUs, getUs, wps };
}

/** The SQL store in-process: Kysely and the storage rules, no HTTP. */
async function service() {
  const h = openDatabase({ dataDir: tmp() });
  await migrateToLatest(h.db);
  const kv = createSqlStorageService({ db: h.db, clock: Date.now });
  const ctx = {
    userId: "1",
    toolId: "t",
    invokeId: "",
    pluginName: "",
    tool: "",
    deadlineMs: 0,
    signal: new AbortController().signal,
    grant: {},
  };
  const setUs = await timeEach(N, (i) =>
    kv.set({ scope: "user", key: `k/${i % 100}`, value: VALUE }, ctx),
  );
  const getUs = await timeEach(N, (i) => kv.get({ scope: "user", key: `k/${i % 100}` }, ctx));
  const wps = await throughput(CLIENTS, SECONDS, (c, i) =>
    kv.set({ scope: "user", key: `c${c}/${i % 100}`, value: VALUE }, ctx),
  );
  await h.close();
  return { setUs, getUs, wps };
}

/** The real server process over HTTP. */
async function rest() {
  const child = spawn(process.execPath, [BIN, "start", "--port", "0", "--data", tmp()], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DATABASE_URL: "", BLOB_STORE: "" },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = "";
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        err += s;
        const m = /"msg":"listening","url":"(http:\/\/[^"]+)"/.exec(err);
        if (m) resolve(m[1] as string);
      });
      child.once("exit", (code) => reject(new Error(`anna-nexus exited ${code}: ${err}`)));
    });
    const signup = await fetch(`${url}/api/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", password: "correct horse battery" }),
    });
    const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const put = async (key: string) => {
      const res = await fetch(`${url}/api/v1/storage/kv?scope=user`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ key, value: VALUE }),
      });
      if (res.status !== 200) throw new Error(`set ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const get = async (key: string) => {
      const res = await fetch(
        `${url}/api/v1/storage/kv?scope=user&key=${encodeURIComponent(key)}`,
        {
          headers: { cookie },
        },
      );
      await res.arrayBuffer();
    };
    const setUs = await timeEach(N, (i) => put(`k/${i % 100}`));
    const getUs = await timeEach(N, (i) => get(`k/${i % 100}`));
    const wps = await throughput(CLIENTS, SECONDS, (c, i) => put(`c${c}/${i % 100}`));
    return { setUs, getUs, wps };
  } finally {
    child.kill("SIGTERM");
  }
}

try {
  const b = await bare();
  const s = await service();
  const r = await rest();
  const fmt = (x: number) => x.toFixed(1).padStart(9);
  console.log(
    `KV on SQLite: ${N} sequential calls each, ${CLIENTS} concurrent clients for ${SECONDS} s`,
  );
  console.log("impl       set µs    get µs   writes/s   set ×bare  get ×bare");
  for (const [name, m] of [
    ["bare", b],
    ["service", s],
    ["rest", r],
  ] as const) {
    console.log(
      `${name.padEnd(8)}${fmt(m.setUs)} ${fmt(m.getUs)} ${m.wps.toFixed(0).padStart(10)} ${(m.setUs / b.setUs).toFixed(1).padStart(10)} ${(m.getUs / b.getUs).toFixed(1).padStart(10)}`,
    );
  }
  console.log(
    `overhead per call over bare: set ${(r.setUs - b.setUs).toFixed(0)} µs (service ${(s.setUs - b.setUs).toFixed(0)} µs), get ${(r.getUs - b.getUs).toFixed(0)} µs`,
  );
  console.log(`REST writes/s with ${CLIENTS} clients: ${r.wps.toFixed(0)} (target ≥ 5000)`);
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
