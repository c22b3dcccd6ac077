// SQL storage services on a real database and a real filesystem blob store in a temp folder,
// for store and route tests. A test ServiceContext names the user and tool the call acts for.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  FilesService,
  ServiceContext,
  StorageGrant,
  StorageLimits,
} from "@anna-ai/executa-host";
import { afterAll } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { type Clock, manualClock } from "../../src/core/clock.js";
import { nullLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { createSqlFilesService } from "../../src/storage/sql-files-store.js";
import { createSqlStorageService, type SqlStorageService } from "../../src/storage/sql-kv-store.js";
import { type Harness, harness, ORIGIN } from "./harness.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export interface SqlStorageFixture {
  kv: SqlStorageService;
  files: FilesService;
  blobs: FsBlobStore;
}

export async function sqlStorage(
  h: DatabaseHandle,
  clock: Clock,
  opts: { origin?: string; limits?: Partial<StorageLimits> } = {},
): Promise<SqlStorageFixture> {
  const root = mkdtempSync(join(tmpdir(), "anna-nexus-blobs-"));
  dirs.push(root);
  const blobs = new FsBlobStore({
    root,
    origin: () => opts.origin ?? "http://127.0.0.1:8080",
    clock: () => clock.now(),
  });
  await blobs.init();
  const now = () => clock.now();
  return {
    kv: createSqlStorageService({
      db: h.db,
      clock: now,
      ...(opts.limits ? { limits: opts.limits } : {}),
    }),
    files: createSqlFilesService({
      db: h.db,
      blobs,
      clock: now,
      logger: nullLogger,
      ...(opts.limits ? { limits: opts.limits } : {}),
    }),
    blobs,
  };
}

export function ctxFor(
  userId: string,
  toolId = "tool-a",
  grant: StorageGrant = {},
): ServiceContext<StorageGrant> {
  return {
    userId,
    toolId,
    invokeId: "inv-1",
    pluginName: "test",
    tool: "t",
    deadlineMs: Number.MAX_SAFE_INTEGER,
    signal: new AbortController().signal,
    grant,
  };
}

/** The whole app with SQL storage and the filesystem blob store on one manual clock. */
export async function storageHarness(
  h: DatabaseHandle,
  limits?: Partial<StorageLimits>,
): Promise<Harness & { fixture: SqlStorageFixture }> {
  const clock = manualClock();
  const fixture = await sqlStorage(h, clock, { origin: ORIGIN, ...(limits ? { limits } : {}) });
  const app = harness(
    h,
    {},
    {
      clock,
      storage: { kv: fixture.kv, files: fixture.files, blobs: fixture.blobs },
    },
  );
  return { ...app, fixture };
}
