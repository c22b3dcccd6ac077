// GET /healthz and /readyz: each check named in the body, 503 when a required one is down, no
// error text in the body, answered whatever the Host header (probes address a node by its IP).
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { resolveConfig } from "../../src/core/config.js";
import { memoryLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { MIGRATIONS } from "../../src/db/migrate.js";
import { createApp } from "../../src/http/app.js";
import type { ReadinessCheck } from "../../src/http/context.js";
import { migrationsCheck } from "../../src/ops/readiness-checks.js";
import { READINESS_CHECK_TIMEOUT_MS } from "../../src/routes/health.js";
import { memoryStores } from "../../src/stores/memory-stores.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();

function app(opts: { ping?: () => Promise<void>; readiness?: ReadinessCheck[] }) {
  const logger = memoryLogger();
  const a = createApp({
    stores: memoryStores(),
    clock: manualClock(),
    logger,
    config: resolveConfig({ publicOrigin: "https://nexus.example.com" }),
    pingDatabase: opts.ping ?? (() => Promise.resolve()),
    readiness: opts.readiness ?? [],
  });
  const get = (path: string, host = "127.0.0.1:8080") =>
    Promise.resolve(a.request(`http://${host}${path}`, { headers: { host } }));
  return { get, logs: logger.lines };
}

async function readyz(get: (p: string) => Promise<Response>) {
  const res = await get("/readyz");
  return { status: res.status, body: (await res.json()) as { status: string; checks: object } };
}

describe.each(DIALECTS)("readiness on $name", (d) => {
  const withDb = (h: DatabaseHandle) =>
    app({ ping: h.ping, readiness: [migrationsCheck(h.db)] }).get;

  it.skipIf(d.skip)("is ready on a current schema and names each check", async () => {
    const h = await d.open();
    expect(await readyz(withDb(h))).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", migrations: "ok" } },
    });
  });

  it.skipIf(d.skip)(
    "is not ready while migrations are pending, and stays ready on a schema a newer node migrated",
    async () => {
      const h = await d.open();
      const last = Object.keys(MIGRATIONS).at(-1)!;
      await sql`delete from nexus_migration where name = ${last}`.execute(h.db);
      expect(await readyz(withDb(h))).toEqual({
        status: 503,
        body: { status: "unavailable", checks: { database: "ok", migrations: "pending" } },
      });
      await sql`insert into nexus_migration (name, timestamp) values (${last}, '2026-01-01T00:00:00.000Z'), ('9999-newer', '2099-01-01T00:00:00.000Z')`.execute(
        h.db,
      );
      // A rolling upgrade: the new version migrated, this older node keeps serving until replaced.
      expect(await readyz(withDb(h))).toEqual({
        status: 200,
        body: { status: "ready", checks: { database: "ok", migrations: "newer" } },
      });
    },
  );
});

describe("readiness probes", () => {
  it("answers 503 naming the database when it is down, with no error text or URL in the body", async () => {
    const { get, logs } = app({
      ping: () =>
        Promise.reject(new Error("connect ECONNREFUSED postgres://anna:hunter2@10.0.0.5/anna")),
    });
    const res = await get("/readyz");
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      status: "unavailable",
      checks: { database: "unreachable" },
    });
    expect(text).not.toMatch(/hunter2|ECONNREFUSED|10\.0\.0\.5/);
    // The operator finds the reason in the log, under the probe's request id.
    const line = logs.find((l) => l.includes("readiness check failed"))!;
    expect(JSON.parse(line)).toMatchObject({
      check: "database",
      request_id: res.headers.get("x-request-id"),
    });
  });

  it(
    "counts a check that does not answer in time as down",
    { timeout: READINESS_CHECK_TIMEOUT_MS + 5_000 },
    async () => {
      const { get } = app({ ping: () => new Promise(() => {}) });
      const started = Date.now();
      expect(await readyz(get)).toEqual({
        status: 503,
        body: { status: "unavailable", checks: { database: "timeout" } },
      });
      expect(Date.now() - started).toBeLessThan(READINESS_CHECK_TIMEOUT_MS + 2_000);
    },
  );

  it("reports a check that is not required without failing readiness", async () => {
    const sandbox: ReadinessCheck = {
      name: "sandbox",
      required: false,
      probe: () => Promise.resolve("unusable"),
    };
    const broken: ReadinessCheck = {
      name: "migrations",
      required: true,
      probe: () => Promise.reject(new Error("boom")),
    };
    expect(await readyz(app({ readiness: [sandbox] }).get)).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", sandbox: "unusable" } },
    });
    expect((await readyz(app({ readiness: [sandbox, broken] }).get)).status).toBe(503);
  });

  it("answers probes whatever the Host header, while every other route refuses a foreign Host", async () => {
    const { get } = app({});
    // A load balancer probing the node at its own address, not the public name.
    for (const host of ["10.1.2.3:8080", "evil.example"]) {
      expect((await get("/healthz", host)).status).toBe(200);
      expect((await get("/readyz", host)).status).toBe(200);
      expect((await get("/api/v1/me", host)).status).toBe(421);
    }
    expect(await (await get("/healthz")).json()).toEqual({ status: "ok" });
  });
});
