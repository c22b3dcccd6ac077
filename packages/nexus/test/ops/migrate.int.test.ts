// `anna-nexus migrate` and the schema guard of `start`, as real processes on real databases:
// SQLite always, PostgreSQL where its binaries are (skipped with the reason otherwise).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/connect.js";
import { MIGRATIONS } from "../../src/db/migrate.js";
import { findPostgresBin, type PgCluster, startPostgres } from "../helpers/postgres.js";
import { startNexus } from "../helpers/process.js";

const ALL = Object.keys(MIGRATIONS);
// Several process runs each; a loaded CI machine takes seconds per Node start.
const SLOW = { timeout: 120_000 };
const LATEST = ALL[ALL.length - 1]!;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-migrate-"));
  dirs.push(d);
  return d;
};
const pg = findPostgresBin();
let cluster: PgCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

interface Target {
  name: string;
  skip: boolean;
  /** Database flags naming a fresh, empty database (and a data folder of its own). */
  fresh(): Promise<{ args: string[]; url: string }>;
}

const TARGETS: Target[] = [
  {
    name: "sqlite",
    skip: false,
    fresh: () => {
      const data = tempDir();
      const url = `sqlite:${join(data, "nexus.sqlite")}`;
      return Promise.resolve({ args: ["--data", data, "--database-url", url], url });
    },
  },
  {
    name: "missing" in pg ? `postgres (skipped: ${pg.missing})` : "postgres",
    skip: "missing" in pg,
    fresh: async () => {
      if ("missing" in pg) throw new Error(pg.missing);
      cluster ??= await startPostgres(pg);
      const url = await cluster.createDatabase();
      return { args: ["--data", tempDir(), "--database-url", url], url };
    },
  },
];

async function run(args: string[]) {
  const p = startNexus(args);
  const code = await p.exited();
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Marks the database as migrated by a newer Nexus: a migration this build does not carry. */
async function addFutureMigration(url: string): Promise<void> {
  const h = openDatabase({ url, dataDir: "" });
  try {
    await sql`insert into nexus_migration (name, timestamp) values ('9999-from-the-future', '2099-01-01T00:00:00.000Z')`.execute(
      h.db,
    );
  } finally {
    await h.close();
  }
}

describe.each(TARGETS)("anna-nexus migrate on $name", (t) => {
  it.skipIf(t.skip)(
    "lists pending migrations on --dry-run without applying them, applies them once, then has nothing to do",
    SLOW,
    async () => {
      const { args } = await t.fresh();
      const dry = await run(["migrate", ...args, "--dry-run", "--json"]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({
        dry_run: true,
        applied: [],
        pending: ALL,
        current: null,
      });
      // Still nothing applied: a second dry run lists the same.
      const text = await run(["migrate", ...args, "--dry-run"]);
      expect(text.stdout).toContain(`${ALL.length} pending migrations (dry run, nothing applied)`);
      expect(text.stdout).toContain(`  ${LATEST}`);

      const first = await run(["migrate", ...args, "--json"]);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({
        applied: ALL,
        pending: [],
        current: LATEST,
      });
      const again = await run(["migrate", ...args]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`is current \\(${LATEST}\\); nothing to migrate`));
    },
  );

  it.skipIf(t.skip)(
    "refuses a schema a newer anna-nexus migrated, in migrate and in start, naming both versions",
    SLOW,
    async () => {
      const { args, url } = await t.fresh();
      expect((await run(["migrate", ...args])).code).toBe(0);
      await addFutureMigration(url);
      for (const cmd of [["migrate"], ["start", "--port", "0"]]) {
        const r = await run([...cmd, ...args]);
        expect(r.code, r.stderr).toBe(8);
        const lines = r.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain("newer than this anna-nexus");
        expect(lines[0]).toContain("9999-from-the-future");
        expect(lines[0]).toContain(`newest ${LATEST}`);
      }
    },
  );
});

describe("anna-nexus start and pending migrations", () => {
  it(
    "migrates an embedded SQLite database by itself, and only checks with --no-migrate",
    SLOW,
    async () => {
      const data = tempDir();
      const refused = await run(["start", "--port", "0", "--data", data, "--no-migrate"]);
      expect(refused.code).toBe(8);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toContain(`${ALL.length} pending migrations`);
      expect(refused.stderr).toContain("--no-migrate is set; run 'anna-nexus migrate'");

      expect((await run(["migrate", "--data", data])).code).toBe(0);
      const p = startNexus(["start", "--port", "0", "--data", data, "--no-migrate"]);
      try {
        await p.waitFor(/"msg":"listening"/);
        expect(p.stderr()).toContain(`"migrations_applied":[],"schema":"${LATEST}"`);
      } finally {
        p.signal("SIGTERM");
        expect(await p.exited()).toBe(0);
      }
    },
  );

  it.skipIf("missing" in pg)(
    `refuses pending migrations on PostgreSQL, pointing at anna-nexus migrate, and starts once it ran${"missing" in pg ? ` (skipped: ${pg.missing})` : ""}`,
    SLOW,
    async () => {
      const { args } = await TARGETS[1]!.fresh();
      const refused = await run(["start", "--port", "0", ...args]);
      expect(refused.code).toBe(8);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(
        /pending migrations \(0001-accounts, .*\) and this command does not migrate PostgreSQL by itself; run 'anna-nexus migrate' with the same database flags first/,
      );
      // admin commands follow the same rule: they never upgrade a shared schema as a side effect.
      const admin = await run(["admin", "list-users", ...args]);
      expect(admin.code).toBe(8);

      expect((await run(["migrate", ...args])).code).toBe(0);
      const p = startNexus(["start", "--port", "0", ...args], {
        ANNA_TOKEN_KEK: Buffer.alloc(32, 7).toString("base64"),
      });
      try {
        const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
        const ready = await fetch(`${m[1]}/readyz`);
        expect(await ready.json()).toMatchObject({
          status: "ready",
          checks: { database: "ok", migrations: "ok" },
        });
      } finally {
        p.signal("SIGTERM");
        expect(await p.exited()).toBe(0);
      }
    },
  );

  it.skipIf("missing" in pg)(
    `lets two migrate runs at once on one PostgreSQL database apply each migration exactly once${"missing" in pg ? ` (skipped: ${pg.missing})` : ""}`,
    SLOW,
    async () => {
      const { args, url } = await TARGETS[1]!.fresh();
      const [a, b] = await Promise.all([
        run(["migrate", ...args, "--json"]),
        run(["migrate", ...args, "--json"]),
      ]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      const applied = [a, b].map((r) => (JSON.parse(r.stdout) as { applied: string[] }).applied);
      // One run took the lock and applied everything; the other waited and found nothing to do.
      expect([...applied[0]!, ...applied[1]!].sort()).toEqual(ALL);
      expect(applied.map((x) => x.length).sort((x, y) => x - y)).toEqual([0, ALL.length]);
      const h = openDatabase({ url, dataDir: "" });
      try {
        const rows = await sql<{
          n: number;
        }>`select count(*)::int as n from nexus_migration`.execute(h.db);
        expect(rows.rows[0]!.n).toBe(ALL.length);
      } finally {
        await h.close();
      }
    },
  );
});
