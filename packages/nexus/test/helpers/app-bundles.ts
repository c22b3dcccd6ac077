// Registry rows and bundle files written directly, for the serving, review and check tests: an
// app, its versions, a finalized bundle whose files are real objects in a real filesystem blob
// store, and review rows. The upload and submit routes are not needed to test what reads them.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely, Selectable } from "kysely";
import { afterAll } from "vitest";
import {
  runPreReviewChecks,
  type PreReviewCheck,
  type ReviewFinding,
} from "../../src/apps/pre-review.js";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import type { AppStatus } from "../../src/db/schema-apps.js";
import type { Database } from "../../src/db/schema.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export async function tempBlobStore(): Promise<FsBlobStore> {
  const root = mkdtempSync(join(tmpdir(), "anna-nexus-bundles-"));
  dirs.push(root);
  const blobs = new FsBlobStore({ root, origin: () => "http://127.0.0.1:8080", clock: Date.now });
  await blobs.init();
  return blobs;
}

export type FileSpec = string | Buffer | { body: string | Buffer; contentType?: string };

export interface BundleSpec {
  files: Record<string, FileSpec>;
  entry?: string;
  externalOrigins?: string[];
  status?: "staging" | "ready";
  /** The declared file map; default: exactly the files given. */
  fileMap?: Record<string, { sha256: string; byte_size: number; content_type: string }>;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "application/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  png: "image/png",
  svg: "image/svg+xml",
};

export const sha256Hex = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

export interface Registry {
  db: Kysely<Database>;
  blobs: FsBlobStore;
  app(opts: { slug: string; ownerId?: number | null; status?: AppStatus }): Promise<number>;
  version(
    appId: number,
    opts: { version: string; manifest?: unknown; published?: boolean; createdAt?: number },
  ): Promise<number>;
  /** Makes `versionId` the app's live version (`latest_version_id`). */
  setLatest(appId: number, versionId: number): Promise<void>;
  bundle(appId: number, versionId: number | null, spec: BundleSpec): Promise<number>;
  review(
    appId: number,
    versionId: number | null,
    opts: {
      submittedBy: number;
      submittedAt: number;
      status?: string;
      checks?: ReviewFinding[];
      reason?: string | null;
    },
  ): Promise<number>;
  install(userId: number, appId: number, version: string): Promise<void>;
  /** The pre-review input of a version as the submit route builds it, and the checks' findings. */
  runChecks(
    checks: readonly PreReviewCheck[],
    appId: number,
    versionId: number,
  ): Promise<ReviewFinding[]>;
}

export function uiManifest(extra: Record<string, unknown> = {}, ui: Record<string, unknown> = {}) {
  return {
    schema: 2,
    ui: {
      bundle: { format: "static-spa", entry: "index.html" },
      views: [{ name: "main", title: "Main" }],
      ...ui,
    },
    ...extra,
  };
}

export function registry(db: Kysely<Database>, blobs: FsBlobStore): Registry {
  const now = Date.now();
  return {
    db,
    blobs,
    async app({ slug, ownerId = null, status = "DRAFT" }) {
      const row = await db
        .insertInto("apps")
        .values({ slug, name: slug, owner_id: ownerId, status, created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async version(appId, { version, manifest = uiManifest(), published = false, createdAt = now }) {
      const row = await db
        .insertInto("app_versions")
        .values({
          app_id: appId,
          version,
          name: `v${version}`,
          manifest: JSON.stringify(manifest),
          tool_ids: "{}",
          source: "publish",
          published_at: published ? createdAt : null,
          created_at: createdAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async setLatest(appId, versionId) {
      await db
        .updateTable("apps")
        .set({ latest_version_id: versionId })
        .where("id", "=", appId)
        .execute();
    },
    async bundle(appId, versionId, spec) {
      const files = Object.entries(spec.files).map(([path, f]) => {
        const body = typeof f === "string" || Buffer.isBuffer(f) ? f : f.body;
        const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
        const ext = path.split(".").pop() ?? "";
        const contentType =
          typeof f === "object" && !Buffer.isBuffer(f) && f.contentType !== undefined
            ? f.contentType
            : (TYPES[ext] ?? "application/octet-stream");
        return { path, bytes, contentType, sha256: sha256Hex(bytes) };
      });
      const fileMap =
        spec.fileMap ??
        Object.fromEntries(
          files.map((f) => [
            f.path,
            { sha256: f.sha256, byte_size: f.bytes.length, content_type: f.contentType },
          ]),
        );
      const prefix = `app-bundles/${appId}/${versionId ?? "draft"}/${Math.random().toString(36).slice(2)}/`;
      const ready = (spec.status ?? "ready") === "ready";
      const row = await db
        .insertInto("app_bundles")
        .values({
          app_id: appId,
          version_id: versionId,
          status: spec.status ?? "ready",
          bundle_format: "static-spa",
          entry_path: spec.entry ?? "index.html",
          external_origins: JSON.stringify(spec.externalOrigins ?? []),
          file_map: JSON.stringify(fileMap),
          file_count: files.length,
          total_size_bytes: files.reduce((n, f) => n + f.bytes.length, 0),
          sha256_manifest: sha256Hex(Buffer.from(JSON.stringify(fileMap))),
          object_prefix: prefix,
          created_at: now,
          finalized_at: ready ? now : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const f of files) {
        const key = `${prefix}${f.path}`;
        const put = await blobs.put(key, f.contentType, new Blob([f.bytes]).stream(), 1 << 30);
        if (!put.ok) throw new Error(put.message);
        await db
          .insertInto("app_bundle_files")
          .values({
            bundle_id: row.id,
            relative_path: f.path,
            sha256: f.sha256,
            byte_size: f.bytes.length,
            content_type: f.contentType,
            blob_key: key,
            uploaded_at: now,
          })
          .execute();
      }
      return row.id;
    },
    async review(appId, versionId, o) {
      const row = await db
        .insertInto("app_reviews")
        .values({
          app_id: appId,
          version_id: versionId,
          status: o.status ?? "pending",
          submitted_by_id: o.submittedBy,
          submitted_at: o.submittedAt,
          checks: JSON.stringify(o.checks ?? []),
          reason: o.reason ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async install(userId, appId, version) {
      await db
        .insertInto("user_apps")
        .values({ user_id: userId, app_id: appId, version, enabled: 1, installed_at: now })
        .execute();
    },
    async runChecks(checks, appId, versionId) {
      const app = await db
        .selectFrom("apps")
        .selectAll()
        .where("id", "=", appId)
        .executeTakeFirstOrThrow();
      const version = await db
        .selectFrom("app_versions")
        .selectAll()
        .where("id", "=", versionId)
        .executeTakeFirstOrThrow();
      const row = await db
        .selectFrom("app_bundles")
        .selectAll()
        .where("version_id", "=", versionId)
        .orderBy("id", "desc")
        .executeTakeFirst();
      const files: Selectable<Database["app_bundle_files"]>[] = row
        ? await db
            .selectFrom("app_bundle_files")
            .selectAll()
            .where("bundle_id", "=", row.id)
            .execute()
        : [];
      return runPreReviewChecks(checks, {
        db,
        blobs,
        app,
        version,
        bundle: row ? { row, files } : null,
      });
    },
  };
}
