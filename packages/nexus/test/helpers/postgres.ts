// A throwaway PostgreSQL cluster for tests: initdb once into a cached template (initdb costs
// seconds), copy it per test file, start on a free 127.0.0.1 port, one fresh database per suite.
// PostgreSQL refuses to run as root, so as root (here and in CI) every pg binary runs as
// `nobody` through runuser. Where no binaries exist, `findPostgresBin()` says why and suites skip.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";

const CANDIDATE_DIRS = [
  process.env.ANNA_PG_BIN,
  "/usr/local/bin",
  // Debian's postgresql package.
  ...(existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : []),
];

export interface PgBin {
  dir: string;
}

export function findPostgresBin(): PgBin | { missing: string } {
  for (const dir of CANDIDATE_DIRS) {
    if (dir && ["initdb", "pg_ctl", "postgres"].every((b) => existsSync(join(dir, b)))) {
      return { dir };
    }
  }
  return {
    missing: `no PostgreSQL binaries (initdb, pg_ctl, postgres) in ${CANDIDATE_DIRS.filter(Boolean).join(", ")}; install Debian's postgresql or set ANNA_PG_BIN`,
  };
}

const IS_ROOT = process.getuid?.() === 0;
const RUN_AS = "nobody";

function runPg(bin: PgBin, tool: string, args: string[]): string {
  const exe = join(bin.dir, tool);
  const [cmd, argv] = IS_ROOT ? ["runuser", ["-u", RUN_AS, "--", exe, ...args]] : [exe, args];
  return execFileSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (IS_ROOT) {
    const uid = Number(execFileSync("id", ["-u", RUN_AS], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", RUN_AS], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

function templateDir(bin: PgBin): string {
  const tpl = join(tmpdir(), `anna-nexus-pg-template-${process.getuid?.() ?? 0}`);
  if (existsSync(join(tpl, "data", "PG_VERSION"))) return tpl;
  const staging = ownedTempDir("anna-nexus-pg-init-");
  runPg(bin, "initdb", [
    "-D",
    join(staging, "data"),
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  try {
    renameSync(staging, tpl);
  } catch {
    // Another worker won the race; its template is as good as ours.
    rmSync(staging, { recursive: true, force: true });
  }
  return tpl;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  port: number;
  /** A URL to a new, empty database in this cluster. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

let dbCounter = 0;

export async function startPostgres(bin: PgBin): Promise<PgCluster> {
  const tpl = templateDir(bin);
  const root = ownedTempDir("anna-nexus-pg-");
  // cp -a keeps the owner, so the copy is still the pg user's.
  execFileSync("cp", ["-a", join(tpl, "data"), join(root, "data")]);
  const port = await freePort();
  const opts = `-p ${port} -h 127.0.0.1 -k ${root} -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
  runPg(bin, "pg_ctl", [
    "-D",
    join(root, "data"),
    "-o",
    opts,
    "-l",
    join(root, "log"),
    "-w",
    "-t",
    "60",
    "start",
  ]);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    async createDatabase() {
      const name = `t_${process.pid}_${++dbCounter}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      try {
        runPg(bin, "pg_ctl", ["-D", join(root, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
  };
}

/**
 * A URL to a new database with every migration applied, as `anna-nexus migrate` leaves it:
 * `start` and `admin` only check the schema on PostgreSQL.
 */
export async function createMigratedDatabase(cluster: PgCluster): Promise<string> {
  const url = await cluster.createDatabase();
  const h = openDatabase({ url, dataDir: "" });
  try {
    await migrateToLatest(h.db);
  } finally {
    await h.close();
  }
  return url;
}
