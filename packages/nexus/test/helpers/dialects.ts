// describe.each over dialects: every store and route suite runs on a real SQLite file and, where
// the binaries exist, on a real PostgreSQL database; otherwise the PostgreSQL half is skipped
// with the reason in its name.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { memoryStores } from "../../src/stores/memory-stores.js";
import { sqlStores } from "../../src/stores/sql-stores.js";
import type { Stores } from "../../src/stores/types.js";
import { findPostgresBin, type PgCluster, startPostgres } from "./postgres.js";

export interface DialectCase {
  name: string;
  skip: boolean;
  /** A fresh, migrated database; closed by the caller (or `closeAll`). */
  open(): Promise<DatabaseHandle>;
  /** Two connections (pools) to one fresh database, as two Nexus instances would hold. */
  openShared(): Promise<[DatabaseHandle, DatabaseHandle]>;
}

const pgBin = findPostgresBin();
let cluster: Promise<PgCluster> | undefined;
const tempDirs: string[] = [];
const handles: DatabaseHandle[] = [];

async function track(h: DatabaseHandle): Promise<DatabaseHandle> {
  handles.push(h);
  await migrateToLatest(h.db);
  return h;
}

export const DIALECTS: DialectCase[] = [
  {
    name: "sqlite",
    skip: false,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), "anna-nexus-sqlite-"));
      tempDirs.push(dir);
      return track(openDatabase({ dataDir: dir }));
    },
    openShared: async () => {
      const dir = mkdtempSync(join(tmpdir(), "anna-nexus-sqlite-"));
      tempDirs.push(dir);
      const url = `sqlite:${join(dir, "nexus.sqlite")}`;
      return [
        await track(openDatabase({ url, dataDir: "" })),
        await track(openDatabase({ url, dataDir: "" })),
      ];
    },
  },
  {
    name: "missing" in pgBin ? `postgres (skipped: ${pgBin.missing})` : "postgres",
    skip: "missing" in pgBin,
    open: async () => {
      if ("missing" in pgBin) throw new Error(pgBin.missing);
      cluster ??= startPostgres(pgBin);
      const url = await (await cluster).createDatabase();
      return track(openDatabase({ url, dataDir: "" }));
    },
    openShared: async () => {
      if ("missing" in pgBin) throw new Error(pgBin.missing);
      cluster ??= startPostgres(pgBin);
      const url = await (await cluster).createDatabase();
      return [
        await track(openDatabase({ url, dataDir: "" })),
        await track(openDatabase({ url, dataDir: "" })),
      ];
    },
  },
];

/** Every Stores implementation a store contract runs on: in memory, then each dialect. */
export const STORE_IMPLS: { name: string; skip: boolean; make: () => Promise<Stores> }[] = [
  { name: "memory", skip: false, make: () => Promise.resolve(memoryStores()) },
  ...DIALECTS.map((d) => ({
    name: d.name,
    skip: d.skip,
    make: async () => sqlStores((await d.open()).db),
  })),
];

/** Call once at the top of a test file that uses DIALECTS or STORE_IMPLS. */
export function useDialectCleanup(): void {
  beforeAll(() => {});
  afterAll(async () => {
    for (const h of handles.splice(0)) await h.close().catch(() => {});
    if (cluster) await (await cluster).stop();
    cluster = undefined;
    for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }, 60_000);
}
