// The App Store (issue 12 "Speed") on the embedded SQLite default: a search page over 10,000
// listed apps (p50 and p99 of single requests, the first page, a deep page by cursor and a
// word search) next to a bare prepared SELECT of the same page on the same connection, and an
// install with three required executas next to bare inserts of the same rows.
//
// The store is called in process (the service routes/store.ts calls), so the figures are the
// query and rule cost, not HTTP. Seeding writes rows straight to SQLite; the three tools are
// made through the Executa Hub, as the tests make them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite, sqliteConnectionOf } from "../../packages/nexus/src/db/connect.js";
import { migrateToLatest } from "../../packages/nexus/src/db/migrate.js";
import { executaHub } from "../../packages/nexus/src/hub/executa-hub.js";
import { sqlExecutaStore } from "../../packages/nexus/src/hub/executa-store.js";
import { sqlStores } from "../../packages/nexus/src/stores/sql-stores.js";
import { appStore } from "../../packages/nexus/src/store/app-store.js";
import { type MeasureOptions, measure, type Row } from "./measure.js";

export const STORE_APPS = 10_000;
const PAGE = 20;
const WORDS = ["notes", "weather", "budget", "photo", "chess", "recipe", "focus", "music"];
const CATEGORIES = ["productivity", "data", "creative", "utilities"];
/**
 * Users pre-made for installs, so every measured install is a first install: enough for the
 * bare insert at 4 µs an install (it measured 12–70 µs) for the whole warm-up and rounds, and
 * the store's at 100 µs. A fixed 40,000 ran out once the bare insert got to 14 µs.
 */
function installUsers(o: MeasureOptions): number {
  const ms = o.warmupMs + o.rounds * o.roundMs;
  return Math.ceil(ms * (1000 / 4 + 1000 / 100));
}

const clock = { now: () => Date.now() };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** p50 and p99 of `samples` single calls of each op, interleaved so drift hits all alike. */
async function latencies(
  group: string,
  ops: { name: string; baseline?: string; op: () => unknown }[],
  samples: number,
): Promise<Row[]> {
  const times = new Map(ops.map((o) => [o.name, [] as number[]]));
  for (let i = 0; i < Math.min(50, samples); i++) for (const o of ops) await o.op();
  for (let i = 0; i < samples; i++) {
    for (const o of ops) {
      const t = performance.now();
      await o.op();
      times.get(o.name)!.push((performance.now() - t) * 1000);
    }
  }
  return [50, 99].flatMap((p) =>
    ops.map((o) => {
      const us = percentile(
        [...times.get(o.name)!].sort((a, b) => a - b),
        p,
      );
      return {
        group: `${group} p${p}`,
        name: o.name,
        baseline: o.baseline,
        opsPerS: 1e6 / us,
        usPerOp: us,
      };
    }),
  );
}

export async function storePiece(o: MeasureOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "anna-bench-nexus-store-"));
  const handle = openSqlite(join(dir, "nexus.sqlite"));
  try {
    await migrateToLatest(handle.db);
    const conn = sqliteConnectionOf(handle.db)!;
    const now = Date.now();
    const INSTALL_USERS = installUsers(o);
    const seedUsers = conn.prepare(
      "insert into users (email, password_hash, is_admin, is_verified, is_verified_developer, created_at, updated_at) values (?, 'x', 0, 1, 0, ?, ?)",
    );
    const seedApp = conn.prepare(
      "insert into apps (slug, name, status, category, tagline, description, install_count, created_at, updated_at) values (?, ?, 'PUBLISHED', ?, ?, ?, ?, ?, ?)",
    );
    const seedVersion = conn.prepare(
      "insert into app_versions (app_id, version, name, manifest, tool_ids, published_at, created_at) values (?, '1.0.0', ?, ?, '{}', ?, ?)",
    );
    const latest = conn.prepare("update apps set latest_version_id = ? where id = ?");
    conn.transaction(() => {
      for (let i = 0; i < INSTALL_USERS + 1; i++) seedUsers.run(`u${i}@bench.example`, now, now);
      for (let i = 0; i < STORE_APPS; i++) {
        const w = WORDS[i % WORDS.length]!;
        const name = `${w[0]!.toUpperCase()}${w.slice(1)} ${i}`;
        const app = seedApp.run(
          `app-${i}`,
          name,
          CATEGORIES[i % CATEGORIES.length],
          `The ${w} app number ${i}`,
          `A longer description of app ${i}, about ${w} and ${WORDS[(i + 3) % WORDS.length]}. `.repeat(
            4,
          ),
          (i * 7919) % 5000,
          now,
          now,
        );
        const v = seedVersion.run(
          app.lastInsertRowid,
          name,
          '{"schema":1,"required_executas":[]}',
          now,
          now,
        );
        latest.run(v.lastInsertRowid, app.lastInsertRowid);
      }
    })();
    conn.pragma("optimize");

    const store = appStore({ db: handle.db, clock });
    const first = await store.catalogue.search({ limit: PAGE });
    let cursor = first.next_cursor!;
    for (let p = 0; p < 4; p++)
      cursor = (await store.catalogue.search({ limit: PAGE, cursor })).next_cursor!;
    const [, countAt, idAt] = JSON.parse(Buffer.from(cursor, "base64url").toString()).k as number[];

    const listing =
      "select apps.id, apps.slug, apps.handle, apps.name, apps.tagline, apps.category, apps.logo_url, apps.install_count, apps.updated_at, lv.version from apps left join app_versions lv on lv.id = apps.latest_version_id where apps.status = 'PUBLISHED' and apps.is_dev = 0 and apps.latest_version_id is not null";
    const bareFirst = conn.prepare(
      `${listing} order by apps.install_count desc, apps.id desc limit ${PAGE + 1}`,
    );
    const bareDeep = conn.prepare(
      `${listing} and (apps.install_count, apps.id) < (?, ?) order by apps.install_count desc, apps.id desc limit ${PAGE + 1}`,
    );
    const bareWord = conn.prepare(
      `${listing} and (lower(apps.name) like ? or lower(apps.slug) like ? or lower(apps.tagline) like ? or lower(apps.description) like ?) order by apps.install_count desc, apps.id desc limit ${PAGE + 1}`,
    );
    // Ranking needs every match, so no LIKE search can stop at the first page's worth of rows:
    // this full scan of the same predicate is the floor for a search without a text index.
    const bareScan = conn.prepare(
      "select count(*) from apps where status = 'PUBLISHED' and (name like ? or slug like ? or tagline like ? or description like ?)",
    );
    const samples = Math.max(100, o.rounds * 60);
    const bareFirstName = "bare indexed SELECT of the page";
    const bareWordName = "bare LIKE SELECT of the page";
    const rows = await latencies(
      `search page, ${STORE_APPS.toLocaleString("en")} apps`,
      [
        { name: bareFirstName, op: () => bareFirst.all() },
        {
          name: "store: first page",
          baseline: bareFirstName,
          op: () => store.catalogue.search({ limit: PAGE }),
        },
        {
          name: "bare indexed SELECT, page 6",
          op: () => bareDeep.all(countAt, idAt),
        },
        {
          name: "store: page 6 by cursor",
          baseline: "bare indexed SELECT, page 6",
          op: () => store.catalogue.search({ limit: PAGE, cursor }),
        },
        { name: bareWordName, op: () => bareWord.all("%chess%", "%chess%", "%chess%", "%chess%") },
        {
          name: "bare LIKE full scan (count)",
          op: () => bareScan.get("%chess%", "%chess%", "%chess%", "%chess%"),
        },
        {
          name: "store: q=chess, ranked",
          baseline: "bare LIKE full scan (count)",
          op: () => store.catalogue.search({ q: "chess", limit: PAGE }),
        },
      ],
      samples,
    );

    // Install: an app with three required executas from the Hub, for a new user each time.
    const stores = sqlStores(handle.db);
    const dev = await stores.users.create(
      { email: "dev@bench.example", passwordHash: "x", isVerified: true, handle: "bench" },
      now,
    );
    const hub = executaHub({ store: sqlExecutaStore(handle.db), clock });
    const tools: number[] = [];
    for (const slug of ["one", "two", "three"]) {
      const { value: d } = await hub.createDraft(dev, {
        name: slug,
        type: "tool",
        slug,
        idempotencyKey: undefined,
        payload: {},
      });
      const { value: e } = await hub.commitDraft(dev, d.id, {
        name: slug,
        version: "1.0.0",
        distribution_type: "uv",
      });
      await hub.setVisibility(dev, e.id, "tool", "app_bundled");
      tools.push(e.id);
    }
    const toolIds = conn
      .prepare(`select tool_id from executas where id in (${tools.join(",")})`)
      .all() as { tool_id: string }[];
    const manifest = JSON.stringify({
      schema: 1,
      required_executas: toolIds.map((t) => ({ tool_id: t.tool_id })),
    });
    const app = seedApp.run("three-tools", "Three Tools", "data", null, null, 0, now, now);
    const v = seedVersion.run(app.lastInsertRowid, "Three Tools", manifest, now, now);
    latest.run(v.lastInsertRowid, app.lastInsertRowid);
    const appId = Number(app.lastInsertRowid);
    const versionId = Number(v.lastInsertRowid);

    let nextUser = 2;
    const fresh = () => {
      if (nextUser > INSTALL_USERS) throw new Error(`bench ran out of its ${INSTALL_USERS} users`);
      return nextUser++;
    };
    const insUserApp = conn.prepare(
      "insert into user_apps (user_id, app_id, version, installed_version_id, enabled, auto_update, installed_at, updated_at) values (?, ?, '1.0.0', ?, 1, 1, ?, ?)",
    );
    const insInstaller = conn.prepare(
      "insert into app_installers (app_id, user_id, first_installed_at) values (?, ?, ?)",
    );
    const bump = conn.prepare("update apps set install_count = install_count + 1 where id = ?");
    const insExecuta = conn.prepare(
      "insert into user_executas (user_id, executa_id, executa_version_id, source, source_app_id, enabled, installed_at, updated_at) values (?, ?, null, 'app', ?, 1, ?, ?)",
    );
    const bareInstall = conn.transaction((user: number) => {
      const t = Date.now();
      insUserApp.run(user, appId, versionId, t, t);
      insInstaller.run(appId, user, t);
      bump.run(appId);
      for (const e of tools) insExecuta.run(user, e, appId, t, t);
    });
    const regular = 1;
    await store.installs.install(regular, "three-tools");
    const bareName = "bare insert of the same rows";
    const installRows = await measure(
      "install, 3 required executas",
      [
        { name: bareName, op: () => bareInstall(fresh()) },
        {
          name: "store: first install",
          baseline: bareName,
          op: () => store.installs.install(fresh(), "three-tools"),
        },
        {
          name: "store: re-install, up to date",
          baseline: bareName,
          op: () => store.installs.install(regular, "three-tools"),
        },
      ],
      o,
    );
    return [...rows, ...installRows];
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
