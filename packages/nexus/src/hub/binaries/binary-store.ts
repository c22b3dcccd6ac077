// Rows of executa binaries (migration 0008): upload tokens, uploads and their parts, finalized
// assets, trusted publishers. Reads and writes only; binary-uploads.ts and trusted-publishers.ts
// hold the rules. Both dialects share it.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../../db/schema.js";
import type {
  ExecutaBinariesTable,
  ExecutaTrustedPublishersTable,
} from "../../db/schema-binaries.js";
import { uniqueViolation } from "../../stores/sql-stores.js";
import { DuplicateRow } from "../executa-store.js";

export type ArchiveFormat = "tar.gz" | "zip";

/** One platform of an upload's plan, as B3 answered it. */
export interface PlannedAsset {
  filename: string;
  sha256: string;
  byteSize: number;
  format: ArchiveFormat;
  entrypoint: string | null;
  partSize: number;
  partCount: number;
  /** `exists`: the same bytes are already stored for this version and platform. */
  status: "upload" | "exists";
}

export type UploadPlan = Record<string, PlannedAsset>;

export interface UploadToken {
  executaId: number;
  userId: number;
  via: "pat" | "oidc";
  publisherId: number | null;
  expiresAt: number;
}

export interface BinaryUpload {
  uploadId: string;
  executaId: number;
  version: string;
  plan: UploadPlan;
  createdAt: number;
  expiresAt: number;
  finalizedAt: number | null;
}

export interface UploadedPart {
  platform: string;
  index: number;
  byteSize: number;
  blobKey: string;
}

export interface StoredBinary {
  executaId: number;
  version: string;
  platform: string;
  filename: string;
  sha256: string;
  byteSize: number;
  format: ArchiveFormat;
  entrypoint: string | null;
  blobKey: string;
  createdAt: number;
}

export interface TrustedPublisher {
  id: number;
  executaId: number;
  repository: string;
  workflow: string;
  /** null: any environment. */
  environment: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}

const toBinary = (r: Selectable<ExecutaBinariesTable>): StoredBinary => ({
  executaId: r.executa_id,
  version: r.executa_version,
  platform: r.platform,
  filename: r.filename,
  sha256: r.sha256,
  byteSize: Number(r.byte_size),
  format: r.format as ArchiveFormat,
  entrypoint: r.entrypoint,
  blobKey: r.blob_key,
  createdAt: Number(r.created_at),
});

const toPublisher = (r: Selectable<ExecutaTrustedPublishersTable>): TrustedPublisher => ({
  id: r.id,
  executaId: r.executa_id,
  repository: r.repository,
  workflow: r.workflow,
  environment: r.environment === "" ? null : r.environment,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
});

export function sqlBinaryStore(db: Kysely<Database>) {
  const store = {
    db,
    async createToken(hash: string, t: UploadToken, now: number): Promise<void> {
      await db
        .insertInto("executa_upload_tokens")
        .values({
          token_hash: hash,
          executa_id: t.executaId,
          user_id: t.userId,
          via: t.via,
          publisher_id: t.publisherId,
          created_at: now,
          expires_at: t.expiresAt,
        })
        .execute();
    },
    async findToken(hash: string): Promise<UploadToken | undefined> {
      const r = await db
        .selectFrom("executa_upload_tokens")
        .selectAll()
        .where("token_hash", "=", hash)
        .executeTakeFirst();
      return (
        r && {
          executaId: r.executa_id,
          userId: r.user_id,
          via: r.via as UploadToken["via"],
          publisherId: r.publisher_id,
          expiresAt: Number(r.expires_at),
        }
      );
    },
    /** Forgets tokens that expired before `now` (each mint sweeps). */
    async sweepTokens(now: number): Promise<void> {
      await db.deleteFrom("executa_upload_tokens").where("expires_at", "<", now).execute();
    },

    async createUpload(u: Omit<BinaryUpload, "finalizedAt">): Promise<void> {
      await db
        .insertInto("executa_binary_uploads")
        .values({
          upload_id: u.uploadId,
          executa_id: u.executaId,
          executa_version: u.version,
          plan: JSON.stringify(u.plan),
          created_at: u.createdAt,
          expires_at: u.expiresAt,
          finalized_at: null,
        })
        .execute();
    },
    async findUpload(uploadId: string): Promise<BinaryUpload | undefined> {
      const r = await db
        .selectFrom("executa_binary_uploads")
        .selectAll()
        .where("upload_id", "=", uploadId)
        .executeTakeFirst();
      return r && toUpload(r);
    },
    /** Unfinalized uploads of this executa version that have not expired, newest first. */
    async openUploads(executaId: number, version: string, now: number): Promise<BinaryUpload[]> {
      const rows = await db
        .selectFrom("executa_binary_uploads")
        .selectAll()
        .where("executa_id", "=", executaId)
        .where("executa_version", "=", version)
        .where("finalized_at", "is", null)
        .where("expires_at", ">", now)
        .orderBy("id", "desc")
        .execute();
      return rows.map(toUpload);
    },
    /** Uploads that expired unfinalized, for the sweep that deletes them and their parts. */
    async expiredUploads(now: number): Promise<BinaryUpload[]> {
      const rows = await db
        .selectFrom("executa_binary_uploads")
        .selectAll()
        .where("finalized_at", "is", null)
        .where("expires_at", "<=", now)
        .execute();
      return rows.map(toUpload);
    },
    async deleteUpload(uploadId: string): Promise<void> {
      await db.deleteFrom("executa_binary_parts").where("upload_id", "=", uploadId).execute();
      await db.deleteFrom("executa_binary_uploads").where("upload_id", "=", uploadId).execute();
    },
    async markFinalized(uploadId: string, now: number): Promise<void> {
      await db
        .updateTable("executa_binary_uploads")
        .set({ finalized_at: now })
        .where("upload_id", "=", uploadId)
        .execute();
    },

    async putPart(uploadId: string, p: UploadedPart, now: number): Promise<void> {
      await db
        .deleteFrom("executa_binary_parts")
        .where("upload_id", "=", uploadId)
        .where("platform", "=", p.platform)
        .where("part_index", "=", p.index)
        .execute();
      await db
        .insertInto("executa_binary_parts")
        .values({
          upload_id: uploadId,
          platform: p.platform,
          part_index: p.index,
          byte_size: p.byteSize,
          blob_key: p.blobKey,
          created_at: now,
        })
        .execute();
    },
    /** In index order. */
    async listParts(uploadId: string, platform?: string): Promise<UploadedPart[]> {
      let q = db.selectFrom("executa_binary_parts").selectAll().where("upload_id", "=", uploadId);
      if (platform !== undefined) q = q.where("platform", "=", platform);
      const rows = await q.orderBy("platform").orderBy("part_index").execute();
      return rows.map((r) => ({
        platform: r.platform,
        index: r.part_index,
        byteSize: Number(r.byte_size),
        blobKey: r.blob_key,
      }));
    },
    async deleteParts(uploadId: string, platform: string): Promise<void> {
      await db
        .deleteFrom("executa_binary_parts")
        .where("upload_id", "=", uploadId)
        .where("platform", "=", platform)
        .execute();
    },

    async listBinaries(executaId: number, version: string): Promise<StoredBinary[]> {
      const rows = await db
        .selectFrom("executa_binaries")
        .selectAll()
        .where("executa_id", "=", executaId)
        .where("executa_version", "=", version)
        .orderBy("platform")
        .execute();
      return rows.map(toBinary);
    },
    async findBinary(
      executaId: number,
      version: string,
      platform: string,
    ): Promise<StoredBinary | undefined> {
      const r = await db
        .selectFrom("executa_binaries")
        .selectAll()
        .where("executa_id", "=", executaId)
        .where("executa_version", "=", version)
        .where("platform", "=", platform)
        .executeTakeFirst();
      return r && toBinary(r);
    },
    /** Replaces the platform's asset of this version; returns the one it replaced. */
    async putBinary(b: StoredBinary): Promise<StoredBinary | undefined> {
      const before = await store.findBinary(b.executaId, b.version, b.platform);
      if (before) {
        await db
          .deleteFrom("executa_binaries")
          .where("executa_id", "=", b.executaId)
          .where("executa_version", "=", b.version)
          .where("platform", "=", b.platform)
          .execute();
      }
      await db
        .insertInto("executa_binaries")
        .values({
          executa_id: b.executaId,
          executa_version: b.version,
          platform: b.platform,
          filename: b.filename,
          sha256: b.sha256,
          byte_size: b.byteSize,
          format: b.format,
          entrypoint: b.entrypoint,
          blob_key: b.blobKey,
          created_at: b.createdAt,
        })
        .execute();
      return before;
    },

    async listPublishers(executaId: number): Promise<TrustedPublisher[]> {
      const rows = await db
        .selectFrom("executa_trusted_publishers")
        .selectAll()
        .where("executa_id", "=", executaId)
        .orderBy("id")
        .execute();
      return rows.map(toPublisher);
    },
    /** Throws DuplicateRow when the same registration exists. */
    async createPublisher(
      p: Omit<TrustedPublisher, "id" | "lastUsedAt">,
    ): Promise<TrustedPublisher> {
      try {
        const row = await db
          .insertInto("executa_trusted_publishers")
          .values({
            executa_id: p.executaId,
            repository: p.repository,
            workflow: p.workflow,
            environment: p.environment ?? "",
            created_at: p.createdAt,
            last_used_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toPublisher(row);
      } catch (err) {
        const what = uniqueViolation(err);
        if (what !== undefined) throw new DuplicateRow(what.trim());
        throw err;
      }
    },
    async deletePublisher(executaId: number, id: number): Promise<boolean> {
      const res = await db
        .deleteFrom("executa_trusted_publishers")
        .where("executa_id", "=", executaId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },
    async touchPublisher(id: number, now: number): Promise<void> {
      await db
        .updateTable("executa_trusted_publishers")
        .set({ last_used_at: now })
        .where("id", "=", id)
        .execute();
    },
  };
  return store;
}

export type BinaryStore = ReturnType<typeof sqlBinaryStore>;

function toUpload(r: Selectable<Database["executa_binary_uploads"]>): BinaryUpload {
  return {
    uploadId: r.upload_id,
    executaId: r.executa_id,
    version: r.executa_version,
    plan: JSON.parse(r.plan) as UploadPlan,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    finalizedAt: r.finalized_at === null ? null : Number(r.finalized_at),
  };
}
