// The app registry over real HTTP for tests: the harness with a real filesystem blob store, the
// Hub client of hub-http.ts, and the two bodies the published CLI sends that are not JSON: a
// multipart bundle file (`relative_path` + `file` named `blob`) and a listing image (`file`).
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";
import type { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { manualClock } from "../../src/core/clock.js";
import { type AppLimits, DEFAULT_CONFIG } from "../../src/core/config.js";
import type { DialectCase } from "./dialects.js";
import { type Harness, harness } from "./harness.js";
import { type HubCall, type HubHttp, hubHttp } from "./hub-http.js";
import { sqlStorage } from "./storage.js";

export interface AppsHttp extends HubHttp {
  h: Harness;
  db: Kysely<Database>;
  blobs: FsBlobStore;
  /** POSTs multipart/form-data as NexusClient does (fetch-built FormData, file named `blob`). */
  upload(
    pat: string,
    path: string,
    fields: Record<string, string>,
    file?: { bytes: Uint8Array | string; type?: string },
  ): Promise<HubCall>;
}

export const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

export async function appsHttp(d: DialectCase, limits: Partial<AppLimits> = {}): Promise<AppsHttp> {
  const db = await d.open();
  const clock = manualClock();
  // The blob store's signed URLs point at the server, whose port is known once it listens.
  const where = { origin: "http://127.0.0.1" };
  const storage = await sqlStorage(db, clock, where);
  const h = harness(
    db,
    { appLimits: { ...DEFAULT_CONFIG.appLimits, ...limits } },
    { clock, storage: { kv: storage.kv, files: storage.files, blobs: storage.blobs } },
  );
  const hub = await hubHttp(h);
  where.origin = hub.url;
  return {
    ...hub,
    h,
    db: db.db,
    blobs: storage.blobs,
    async upload(pat, path, fields, file) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      if (file) {
        const bytes =
          typeof file.bytes === "string" ? new TextEncoder().encode(file.bytes) : file.bytes;
        form.append(
          "file",
          new Blob([bytes], { type: file.type ?? "application/octet-stream" }),
          "blob",
        );
      }
      const res = await fetch(new URL(path, hub.url), {
        method: "POST",
        headers: {
          authorization: `Bearer ${pat}`,
          "user-agent": "anna-app-cli",
          accept: "application/json",
        },
        body: form,
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text === "" ? null : (JSON.parse(text) as unknown),
        hit: res.headers.get("x-anna-idempotent") === "hit",
      };
    },
  };
}
