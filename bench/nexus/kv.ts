// KV `set`/`get` through Nexus against the same statements on a bare better-sqlite3 connection
// (issue 11 "Speed"), and writes/s with 16 concurrent clients (target ≥ 5,000/s on SQLite).
//
// `bare`: one better-sqlite3 connection opened as Nexus opens it (WAL, synchronous=NORMAL)
// running exactly the prepared statements one `storage/set` / `storage/get` of the SQLite store
// runs, in one transaction, with the payload serialised once up front (no rules, no JSON
// canonicalisation, no etag hash). `store`: the SQL store called in process (the storage rules
// and its SQLite statement path). `REST`: the real `anna-nexus start` process over HTTP/1.1
// keep-alive on 127.0.0.1 (node:http Agent, one socket per client), signed in with a session.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
// From the sources, all three: the store finds its SQLite connection by the Kysely instance
// openSqlite made, which the package's dist build would make in another module instance.
import { openSqlite } from "../../packages/nexus/src/db/connect.js";
import { migrateToLatest } from "../../packages/nexus/src/db/migrate.js";
import { createSqlStorageService } from "../../packages/nexus/src/storage/sql-kv-store.js";
import { type Impl, type MeasureOptions, measure, type Row } from "./measure.js";

/** `ANNA_BENCH_NEXUS_BIN` runs the REST rows on another build (a before/after in one session). */
const BIN =
  process.env.ANNA_BENCH_NEXUS_BIN ||
  fileURLToPath(new URL("../../packages/nexus/bin/anna-nexus.js", import.meta.url));
export const KV_CLIENTS = 16;
const VALUE = { n: 1, note: "x".repeat(100) };
/** Keys cycle over this many per client, so sets are mostly updates as in real use. */
const KEYS = 100;

/** The statements of one SQLite-store set/get, prepared once on a bare connection. */
function bareKv(file: string) {
  const conn = new BetterSqlite3(file);
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
    "update storage_kv set payload = ?, etag = ?, generation = ?, size_bytes = ?, metadata = null, tags = null, updated_at = ?, expires_at = null, deleted_at = null where id = ?",
  );
  const charge = conn.prepare(
    "update storage_usage set bytes_used = bytes_used + ?, entry_count = entry_count + ? where user_id = ?",
  );
  const payload = JSON.stringify(VALUE);
  const set = conn.transaction((key: string) => {
    const now = Date.now();
    lock.get("1", now);
    const row = find.get("1", "user", "", key) as { id: number; generation: number } | undefined;
    reserved.get("1", now);
    if (row) update.run(payload, "e", row.generation + 1, payload.length, now, row.id);
    else insert.run("1", key, payload, "e", payload.length, now, now);
    if (!row) charge.run(payload.length, 1, "1");
  });
  const get = (key: string) => find.get("1", "user", "", key);
  return { set, get, close: () => conn.close() };
}

/** A keep-alive HTTP/1.1 client with one socket per concurrent caller. */
export function httpClient(base: string, sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const u = new URL(base);
  const send = (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; text: string; headers: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const req = request(
        { agent, host: u.hostname, port: u.port, method, path, headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (s: string) => (text += s));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    // Fields after the `(comm)`: state is 3rd, utime 14th, stime 15th of the whole line.
    const rest = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(rest[11]) + Number(rest[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * The server's own CPU per REST set under 16 clients: what a write costs the server whatever
 * the load on the machine, and so the writes/s one free core would serve.
 */
async function serverCpuPerSet(
  pid: number,
  clients: number,
  ms: number,
  op: () => Promise<unknown>,
): Promise<Row | undefined> {
  const before = cpuSecondsOf(pid);
  if (before === undefined) return undefined;
  let writes = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await op();
        writes++;
      }
    }),
  );
  const usPerOp = (((cpuSecondsOf(pid) ?? before) - before) * 1e6) / writes;
  return {
    group: `set ×${clients} clients`,
    name: "REST set: server CPU per set",
    baseline: "bare better-sqlite3 set",
    opsPerS: 1e6 / usPerOp,
    usPerOp,
  };
}

/**
 * `anna-nexus start` on a fresh data folder; resolves with its URL once it listens. `env` adds
 * to the server's environment (bench/agent points `ANNA_LLM_*` at a fake provider).
 */
export async function startServer(
  data: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "start", "--port", "0", "--data", data], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DATABASE_URL: "", BLOB_STORE: "", ANNA_DATA_DIR: "", ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    const onData = (s: string) => {
      err += s;
      const m = /"msg":"listening","url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) {
        // From here on stderr is drained unread: the bench must not pay for the server's log.
        child.stderr!.off("data", onData).resume();
        resolve(m[1] as string);
      }
    };
    child.stderr!.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => reject(new Error(`anna-nexus exited ${code}: ${err}`)));
  });
  return { url, child };
}

export async function kvPiece(o: MeasureOptions): Promise<Row[]> {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), "anna-bench-nexus-kv-"));
    dirs.push(d);
    return d;
  };
  const closers: (() => unknown)[] = [];
  try {
    // bare: Nexus's schema, then a connection of its own.
    const bareFile = join(tmp(), "nexus.sqlite");
    const schema = openSqlite(bareFile);
    await migrateToLatest(schema.db);
    await schema.close();
    const bare = bareKv(bareFile);
    closers.push(bare.close);

    const handle = openSqlite(join(tmp(), "nexus.sqlite"));
    closers.push(handle.close);
    await migrateToLatest(handle.db);
    const kv = createSqlStorageService({ db: handle.db, clock: Date.now });
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

    const server = await startServer(tmp());
    closers.push(() => server.child.kill("SIGTERM"));
    const http = httpClient(server.url, KV_CLIENTS);
    closers.push(http.close);
    const signup = await http.send(
      "POST",
      "/api/v1/auth/signup",
      { "content-type": "application/json" },
      JSON.stringify({ email: "bench@example.com", password: "correct horse battery" }),
    );
    const cookie = /anna_session=[^;]+/.exec(String(signup.headers["set-cookie"] ?? ""))?.[0];
    if (signup.status !== 201 || !cookie)
      throw new Error(`signup ${signup.status}: ${signup.text}`);
    const put = async (key: string) => {
      const res = await http.send(
        "PUT",
        "/api/v1/storage/kv?scope=user",
        { "content-type": "application/json", cookie },
        JSON.stringify({ key, value: VALUE }),
      );
      if (res.status !== 200) throw new Error(`set ${res.status}: ${res.text}`);
    };
    const get = async (key: string) => {
      const res = await http.send(
        "GET",
        `/api/v1/storage/kv?scope=user&key=${encodeURIComponent(key)}`,
        { cookie },
      );
      if (res.status !== 200) throw new Error(`get ${res.status}: ${res.text}`);
    };

    let i = 0;
    const key = () => `k/${i++ % KEYS}`;
    const impls = (
      verb: "set" | "get",
      ops: { bare: () => unknown; store: () => unknown; rest: () => unknown },
    ): Impl[] => [
      { name: `bare better-sqlite3 ${verb}`, op: ops.bare },
      { name: `store.${verb} (SQLite)`, baseline: `bare better-sqlite3 ${verb}`, op: ops.store },
      { name: `REST ${verb} (SQLite)`, baseline: `bare better-sqlite3 ${verb}`, op: ops.rest },
    ];
    const setOps = {
      bare: () => bare.set(key()),
      store: () => kv.set({ scope: "user", key: key(), value: VALUE }, ctx),
      rest: () => put(key()),
    };
    const rows = [
      ...(await measure("set", impls("set", setOps), o)),
      ...(await measure(
        "get",
        impls("get", {
          bare: () => bare.get(key()),
          store: () => kv.get({ scope: "user", key: key() }, ctx),
          rest: () => get(key()),
        }),
        o,
      )),
      ...(await measure(`set ×${KV_CLIENTS} clients`, impls("set", setOps), {
        ...o,
        concurrency: KV_CLIENTS,
      })),
    ];
    const cpu = await serverCpuPerSet(server.child.pid!, KV_CLIENTS, o.rounds * o.roundMs, () =>
      put(key()),
    );
    return cpu ? [...rows, cpu] : rows;
  } finally {
    for (const close of closers.reverse()) await close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
