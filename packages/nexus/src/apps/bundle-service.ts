// UI bundle uploads (real-world-cli.md §3.1, A9–A12 for a version, A17–A19 for the working draft):
// init declares the file map, each file arrives as one multipart POST keyed by `relative_path` and
// is checked against its declared sha256 and size before anything is kept, finalize checks every
// declared file arrived and freezes the bundle. Bytes are content-addressed, so a file the store
// already holds is answered `skip_upload` and never sent twice. A version's finalized bundle never
// changes; the working draft's is replaced by the next push.
import { randomUUID } from "node:crypto";
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import type { BundleRow } from "./app-views.js";
import {
  bundleBlobKey,
  checkFileMap,
  type FileMap,
  normaliseBundlePath,
  sha256Manifest,
  totalBytes,
} from "./bundle-file-map.js";
import type { MultipartUpload } from "./multipart-upload.js";
import {
  type Db,
  notArchived,
  ownedApp,
  ownedVersion,
  type RegistryDeps,
  requireBlobs,
} from "./registry-deps.js";

export interface BundleInit {
  file_map: Record<string, unknown>;
  total_size_bytes?: number | undefined;
  file_count?: number | undefined;
  bundle_format?: string | undefined;
  entry_path: string;
  external_origins?: string[] | undefined;
}

/** Which bundle: a version's (`versionId`) or the working draft's (`null`). */
export type BundleOf = number | null;

const HEAD_CONCURRENCY = 8;

/** The target's newest bundle row. */
export async function currentBundle(
  db: Db,
  appId: number,
  of: BundleOf,
): Promise<BundleRow | undefined> {
  let q = db.selectFrom("app_bundles").selectAll().where("app_id", "=", appId);
  q = of === null ? q.where("version_id", "is", null) : q.where("version_id", "=", of);
  return q.orderBy("id", "desc").executeTakeFirst();
}

/** Cut: the working draft's ready bundle becomes the version's too (rows copied, bytes shared). */
export async function copyBundle(tx: Db, from: BundleRow, versionId: number, now: number) {
  const { id: _id, ...row } = from;
  const copy = await tx
    .insertInto("app_bundles")
    .values({ ...row, version_id: versionId, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  const files = await tx
    .selectFrom("app_bundle_files")
    .selectAll()
    .where("bundle_id", "=", from.id)
    .execute();
  if (files.length > 0) {
    await tx
      .insertInto("app_bundle_files")
      .values(files.map((f) => ({ ...f, bundle_id: copy.id })))
      .execute();
  }
  return copy;
}

async function inBatches<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += n)
    out.push(...(await Promise.all(items.slice(i, i + n).map(fn))));
  return out;
}

export function bundleService(deps: RegistryDeps) {
  const { db, clock, limits } = deps;

  async function target(user: User, appId: number, of: BundleOf) {
    const app = await ownedApp(db, user.id, appId);
    if (of !== null) {
      const v = await ownedVersion(db, app, of);
      return { app, label: `version ${v.version}` };
    }
    const working = await db
      .selectFrom("app_working")
      .select("revision")
      .where("app_id", "=", app.id)
      .executeTakeFirst();
    if (!working) {
      throw new NexusError(
        "not_found",
        `${app.slug} has no working draft; stage one with \`anna-app apps push\` first`,
      );
    }
    return { app, label: "the working draft" };
  }

  async function staging(user: User, appId: number, of: BundleOf) {
    const { app, label } = await target(user, appId, of);
    const bundle = await currentBundle(db, app.id, of);
    if (!bundle) {
      throw new NexusError(
        "not_found",
        `${label} of ${app.slug} has no bundle upload in progress; start one with bundle/init`,
      );
    }
    return { app, label, bundle };
  }

  return {
    async get(user: User, appId: number, of: BundleOf): Promise<BundleRow | undefined> {
      const { app } = await target(user, appId, of);
      return currentBundle(db, app.id, of);
    },

    async init(
      user: User,
      appId: number,
      of: BundleOf,
      body: BundleInit,
      uploadUrl: (path: string) => string,
    ) {
      const blobs = requireBlobs(deps);
      const { app, label } = await target(user, appId, of);
      notArchived(app);
      const map = checkFileMap(body.file_map, limits);
      const declared = new Map(
        Object.keys(body.file_map).map((raw) => [normaliseBundlePath(raw), raw]),
      );
      const entry = normaliseBundlePath(body.entry_path);
      if (!Object.hasOwn(map, entry)) {
        throw new NexusError(
          "validation_failed",
          `entry_path ${JSON.stringify(body.entry_path)} is not one of the bundle's files; set ui.bundle.entry to a file under bundle/`,
        );
      }
      const total = totalBytes(map);
      if (body.total_size_bytes !== undefined && body.total_size_bytes !== total) {
        throw new NexusError(
          "validation_failed",
          `total_size_bytes says ${body.total_size_bytes} but the file map adds up to ${total}`,
        );
      }
      const count = Object.keys(map).length;
      if (body.file_count !== undefined && body.file_count !== count) {
        throw new NexusError(
          "validation_failed",
          `file_count says ${body.file_count} but the file map has ${count} files`,
        );
      }
      const prior = await currentBundle(db, app.id, of);
      if (prior?.status === "ready" && of !== null) {
        throw new NexusError(
          "bundle_finalized",
          `${label} of ${app.slug} already has a finalized bundle, which never changes; to ship other files, bump the version (\`--bump patch\`)`,
          { details: { sha256_manifest: prior.sha256_manifest } },
        );
      }
      // What the store already holds (same bytes, any app) needs no upload.
      const paths = Object.keys(map);
      const held = await inBatches(paths, HEAD_CONCURRENCY, async (path) => {
        const e = map[path] as FileMap[string];
        const head = await blobs.head(bundleBlobKey(e.sha256));
        return head?.sizeBytes === e.byte_size;
      });
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        let drop = tx.deleteFrom("app_bundles").where("app_id", "=", app.id);
        drop =
          of === null ? drop.where("version_id", "is", null) : drop.where("version_id", "=", of);
        await drop.execute();
        const bundle = await tx
          .insertInto("app_bundles")
          .values({
            app_id: app.id,
            version_id: of,
            status: "staging",
            bundle_format: body.bundle_format ?? "static-spa",
            entry_path: entry,
            external_origins: JSON.stringify(body.external_origins ?? []),
            file_map: JSON.stringify(map),
            file_count: count,
            total_size_bytes: total,
            sha256_manifest: sha256Manifest(map),
            object_prefix: `app-bundles/${app.id}/${randomUUID()}/`,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const skipped = paths.filter((_, i) => held[i]);
        if (skipped.length > 0) {
          await tx
            .insertInto("app_bundle_files")
            .values(
              skipped.map((path) => {
                const e = map[path] as FileMap[string];
                return {
                  bundle_id: bundle.id,
                  relative_path: path,
                  sha256: e.sha256,
                  byte_size: e.byte_size,
                  content_type: e.content_type,
                  blob_key: bundleBlobKey(e.sha256),
                  uploaded_at: now,
                };
              }),
            )
            .execute();
        }
        return bundle;
      });
      return {
        bundle: row,
        files: paths.map((path, i) => ({
          relative_path: declared.get(path) ?? path,
          proxy_upload_url: uploadUrl(path),
          ...(held[i] ? { skip_upload: true } : {}),
        })),
      };
    },

    /**
     * One file: `read` parses the multipart body with the cap it is given (the declared size once
     * the path is known); the bytes are kept only if they match the declared entry.
     */
    async receive(
      user: User,
      appId: number,
      of: BundleOf,
      read: (cap: (fields: Readonly<Record<string, string>>) => number) => Promise<MultipartUpload>,
    ) {
      const blobs = requireBlobs(deps);
      const { app, label, bundle } = await staging(user, appId, of);
      if (bundle.status === "ready") {
        throw new NexusError(
          "bundle_finalized",
          `${label} of ${app.slug} has a finalized bundle, which never changes; ${of === null ? "push again to stage a new one" : "bump the version to ship other files"}`,
        );
      }
      const map = JSON.parse(bundle.file_map) as FileMap;
      const declaredSize = (raw: string | undefined) => {
        if (raw === undefined) return undefined;
        try {
          return map[normaliseBundlePath(raw)]?.byte_size;
        } catch {
          return undefined;
        }
      };
      const upload = await read(
        (fields) => declaredSize(fields.relative_path) ?? limits.bundleMaxFileBytes,
      );
      try {
        const raw = upload.fields.relative_path;
        if (raw === undefined) {
          throw new NexusError(
            "bad_request",
            "send the file's bundle path in the multipart field 'relative_path'",
          );
        }
        const path = normaliseBundlePath(raw);
        const entry = map[path];
        if (!entry) {
          throw new NexusError(
            "bundle_mismatch",
            `${path} was not declared in this bundle's file_map at init; nothing was kept (run bundle/init again with every file)`,
            { details: { path } },
          );
        }
        const file = upload.file;
        if (!file)
          throw new NexusError("bad_request", "send the file's bytes in the multipart part 'file'");
        if (file.sizeBytes !== entry.byte_size || file.sha256 !== entry.sha256) {
          throw new NexusError(
            "bundle_mismatch",
            `${path}: received ${file.sizeBytes} bytes with sha256 ${file.sha256}, but init declared ${entry.byte_size} bytes with sha256 ${entry.sha256}; nothing was kept`,
            { details: { path } },
          );
        }
        const key = bundleBlobKey(entry.sha256);
        if ((await blobs.head(key))?.sizeBytes !== entry.byte_size) {
          await blobs.putFile(key, file.path, entry.content_type);
        }
        await db.transaction().execute(async (tx) => {
          await tx
            .deleteFrom("app_bundle_files")
            .where("bundle_id", "=", bundle.id)
            .where("relative_path", "=", path)
            .execute();
          await tx
            .insertInto("app_bundle_files")
            .values({
              bundle_id: bundle.id,
              relative_path: path,
              sha256: entry.sha256,
              byte_size: entry.byte_size,
              content_type: entry.content_type,
              blob_key: key,
              uploaded_at: clock.now(),
            })
            .execute();
        });
        return { relative_path: path, sha256: entry.sha256, byte_size: entry.byte_size };
      } finally {
        await upload.cleanup();
      }
    },

    async finalize(user: User, appId: number, of: BundleOf): Promise<BundleRow> {
      const blobs = requireBlobs(deps);
      const { app, label, bundle } = await staging(user, appId, of);
      if (bundle.status === "ready") return bundle;
      const map = JSON.parse(bundle.file_map) as FileMap;
      const rows = await db
        .selectFrom("app_bundle_files")
        .selectAll()
        .where("bundle_id", "=", bundle.id)
        .execute();
      const got = new Map(rows.map((r) => [r.relative_path, r]));
      const missing = Object.keys(map).filter((p) => {
        const r = got.get(p);
        const e = map[p] as FileMap[string];
        return !r || r.sha256 !== e.sha256 || r.byte_size !== e.byte_size;
      });
      // The bytes themselves, in case the store lost an object a row points at.
      const present = await inBatches(
        rows,
        HEAD_CONCURRENCY,
        async (r) => (await blobs.head(r.blob_key))?.sizeBytes === r.byte_size,
      );
      rows.forEach((r, i) => {
        if (!present[i] && !missing.includes(r.relative_path)) missing.push(r.relative_path);
      });
      if (missing.length > 0) {
        throw new NexusError(
          "bundle_incomplete",
          `${label} of ${app.slug}: ${missing.length} declared file${missing.length === 1 ? " has" : "s have"} not arrived (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""}); upload them with bundle/file, then finalize again`,
          { details: { missing: missing.slice(0, 100) } },
        );
      }
      const now = clock.now();
      await db
        .updateTable("app_bundles")
        .set({ status: "ready", finalized_at: now })
        .where("id", "=", bundle.id)
        .execute();
      return { ...bundle, status: "ready", finalized_at: now };
    },
  };
}

export type BundleService = ReturnType<typeof bundleService>;
