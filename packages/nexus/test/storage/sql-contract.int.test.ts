// The storage contract suite (executa-test) against the SQL stores on a real SQLite file and a
// real PostgreSQL, so the server answers exactly as the memory store of `executa dev` does. The
// files cases move bytes over real HTTP: the filesystem blob store's signed routes served on
// 127.0.0.1.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { describeStorageContract } from "@anna-ai/executa-test/storage-contract";
import { Hono } from "hono";
import { describe } from "vitest";
import { fsBlobRoutes } from "../../src/blobs/fs-blob-routes.js";
import { FS_BLOB_ROUTE, FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { nullLogger } from "../../src/core/logger.js";
import { createSqlFilesService } from "../../src/storage/sql-files-store.js";
import { createSqlStorageService } from "../../src/storage/sql-kv-store.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();

for (const d of DIALECTS) {
  if (d.skip) {
    describe.skip(`storage contract: ${d.name}`, () => {});
    continue;
  }
  describeStorageContract(`sql on ${d.name}`, async ({ clock, limits }) => {
    const h = await d.open();
    const root = mkdtempSync(join(tmpdir(), "anna-nexus-contract-blobs-"));
    let origin = "";
    const blobs = new FsBlobStore({ root, origin: () => origin, clock });
    await blobs.init();
    const app = new Hono().route(FS_BLOB_ROUTE.replace(/\/$/, ""), fsBlobRoutes(blobs));
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      storage: createSqlStorageService({ db: h.db, clock, limits }),
      files: createSqlFilesService({ db: h.db, blobs, clock, logger: nullLogger, limits }),
      close: async () => {
        await new Promise<void>((r) => server.close(() => r()));
        await h.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  });
}
