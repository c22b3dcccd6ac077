// Executa Hub rows: drafts, executas and their immutable versions. The SQL implementation serves
// both dialects; the hub service (executa-hub.ts) holds every rule, this file only reads and
// writes. A version row is never updated: later tables (app versions, installs) point at it.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../db/schema.js";
import type { ExecutaDraftsTable, ExecutasTable, ExecutaVersionsTable } from "../db/schema-hub.js";
import { uniqueViolation } from "../stores/sql-stores.js";

export type ExecutaType = "tool" | "skill";
export const EXECUTA_TYPES: readonly ExecutaType[] = ["tool", "skill"];
export type Visibility = "private" | "app_bundled" | "public";
export const VISIBILITIES: readonly Visibility[] = ["private", "app_bundled", "public"];

export type JsonObject = Record<string, unknown>;

export interface ExecutaDraft {
  id: number;
  ownerId: number;
  type: ExecutaType;
  toolId: string;
  slug: string;
  name: string;
  payload: JsonObject;
  idempotencyKey: string | null;
  createdAt: number;
  expiresAt: number;
  committedExecutaId: number | null;
}

export type NewDraft = Omit<ExecutaDraft, "id" | "createdAt" | "committedExecutaId">;

export interface Executa {
  id: number;
  ownerId: number;
  type: ExecutaType;
  toolId: string;
  slug: string;
  name: string;
  description: string | null;
  visibility: Visibility;
  payload: JsonObject;
  createdAt: number;
  updatedAt: number;
  firstPromotedAt: number | null;
  archivedAt: number | null;
}

export type NewExecuta = Pick<
  Executa,
  "ownerId" | "type" | "toolId" | "slug" | "name" | "description" | "payload"
>;

export type ExecutaPatch = Partial<
  Pick<Executa, "name" | "description" | "payload" | "visibility" | "firstPromotedAt">
>;

export interface ExecutaVersion {
  id: number;
  executaId: number;
  version: string;
  contentHash: string;
  snapshotHash: string;
  snapshot: JsonObject;
  frozenBy: "publish" | "app_bundled";
  createdAt: number;
}

export type NewVersion = Omit<ExecutaVersion, "id" | "createdAt">;

/** A unique index said no: the caller re-reads and decides (a retried write, a taken slug). */
export class DuplicateRow extends Error {
  constructor(readonly detail: string) {
    super(`duplicate row: ${detail}`);
    this.name = "DuplicateRow";
  }
}

export interface ExecutaStore {
  /** Throws DuplicateRow when the owner already has a draft with this idempotency key. */
  createDraft(d: NewDraft, now: number): Promise<ExecutaDraft>;
  /** The owner's draft; another owner's is indistinguishable from a missing one. */
  findDraft(ownerId: number, id: number): Promise<ExecutaDraft | undefined>;
  findDraftByKey(ownerId: number, key: string): Promise<ExecutaDraft | undefined>;
  updateDraft(id: number, patch: { name: string; payload: JsonObject }): Promise<void>;
  deleteDraft(id: number): Promise<void>;
  markDraftCommitted(id: number, executaId: number): Promise<void>;
  /** Throws DuplicateRow when the slug is taken among the owner's live executas of this type. */
  createExecuta(e: NewExecuta, now: number): Promise<Executa>;
  /** The owner's executa, archived ones included. */
  findExecuta(ownerId: number, id: number): Promise<Executa | undefined>;
  /** Anyone's executa by its tool_id (binary uploads and downloads name it so). */
  findByToolId(toolId: string): Promise<Executa | undefined>;
  /** Oldest first. */
  listExecutas(
    ownerId: number,
    filter: { type?: ExecutaType; includeArchived: boolean },
  ): Promise<Executa[]>;
  updateExecuta(id: number, patch: ExecutaPatch, now: number): Promise<void>;
  /** Marks it archived and forgets its drafts, so its idempotency key mints afresh. */
  archiveExecuta(id: number, now: number): Promise<void>;
  /** Hard delete; its versions and drafts go with it. */
  deleteExecuta(id: number): Promise<void>;
  /** In insertion order; the service sorts by SemVer. */
  listVersions(executaId: number): Promise<ExecutaVersion[]>;
  /** Throws DuplicateRow when the executa already has this version string. */
  createVersion(v: NewVersion, now: number): Promise<ExecutaVersion>;
  deleteVersion(executaId: number, versionId: number): Promise<boolean>;
  transaction<T>(fn: (store: ExecutaStore) => Promise<T>): Promise<T>;
}

const json = (text: string) => JSON.parse(text) as JsonObject;

const toDraft = (r: Selectable<ExecutaDraftsTable>): ExecutaDraft => ({
  id: r.id,
  ownerId: r.owner_id,
  type: r.executa_type as ExecutaType,
  toolId: r.tool_id,
  slug: r.slug,
  name: r.name,
  payload: json(r.payload),
  idempotencyKey: r.idempotency_key,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  committedExecutaId: r.committed_executa_id,
});

const toExecuta = (r: Selectable<ExecutasTable>): Executa => ({
  id: r.id,
  ownerId: r.owner_id,
  type: r.executa_type as ExecutaType,
  toolId: r.tool_id,
  slug: r.slug,
  name: r.name,
  description: r.description,
  visibility: r.visibility as Visibility,
  payload: json(r.payload),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  firstPromotedAt: r.first_promoted_at,
  archivedAt: r.archived_at,
});

const toVersion = (r: Selectable<ExecutaVersionsTable>): ExecutaVersion => ({
  id: r.id,
  executaId: r.executa_id,
  version: r.version,
  contentHash: r.content_hash,
  snapshotHash: r.snapshot_hash,
  snapshot: json(r.snapshot),
  frozenBy: r.frozen_by as ExecutaVersion["frozenBy"],
  createdAt: r.created_at,
});

async function orDuplicate<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const what = uniqueViolation(err);
    if (what !== undefined) throw new DuplicateRow(what.trim());
    throw err;
  }
}

export function sqlExecutaStore(db: Kysely<Database>): ExecutaStore {
  const store: ExecutaStore = {
    async createDraft(d, now) {
      const row = await orDuplicate(
        db
          .insertInto("executa_drafts")
          .values({
            owner_id: d.ownerId,
            executa_type: d.type,
            tool_id: d.toolId,
            slug: d.slug,
            name: d.name,
            payload: JSON.stringify(d.payload),
            idempotency_key: d.idempotencyKey,
            created_at: now,
            expires_at: d.expiresAt,
            committed_executa_id: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toDraft(row);
    },
    async findDraft(ownerId, id) {
      const r = await db
        .selectFrom("executa_drafts")
        .selectAll()
        .where("id", "=", id)
        .where("owner_id", "=", ownerId)
        .executeTakeFirst();
      return r && toDraft(r);
    },
    async findDraftByKey(ownerId, key) {
      const r = await db
        .selectFrom("executa_drafts")
        .selectAll()
        .where("owner_id", "=", ownerId)
        .where("idempotency_key", "=", key)
        .executeTakeFirst();
      return r && toDraft(r);
    },
    async updateDraft(id, patch) {
      await db
        .updateTable("executa_drafts")
        .set({ name: patch.name, payload: JSON.stringify(patch.payload) })
        .where("id", "=", id)
        .execute();
    },
    async deleteDraft(id) {
      await db.deleteFrom("executa_drafts").where("id", "=", id).execute();
    },
    async markDraftCommitted(id, executaId) {
      await db
        .updateTable("executa_drafts")
        .set({ committed_executa_id: executaId })
        .where("id", "=", id)
        .execute();
    },
    async createExecuta(e, now) {
      const row = await orDuplicate(
        db
          .insertInto("executas")
          .values({
            owner_id: e.ownerId,
            executa_type: e.type,
            tool_id: e.toolId,
            slug: e.slug,
            name: e.name,
            description: e.description,
            visibility: "private",
            payload: JSON.stringify(e.payload),
            created_at: now,
            updated_at: now,
            first_promoted_at: null,
            archived_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toExecuta(row);
    },
    async findExecuta(ownerId, id) {
      const r = await db
        .selectFrom("executas")
        .selectAll()
        .where("id", "=", id)
        .where("owner_id", "=", ownerId)
        .executeTakeFirst();
      return r && toExecuta(r);
    },
    async findByToolId(toolId) {
      const r = await db
        .selectFrom("executas")
        .selectAll()
        .where("tool_id", "=", toolId)
        .executeTakeFirst();
      return r && toExecuta(r);
    },
    async listExecutas(ownerId, f) {
      let q = db.selectFrom("executas").selectAll().where("owner_id", "=", ownerId);
      if (f.type !== undefined) q = q.where("executa_type", "=", f.type);
      if (!f.includeArchived) q = q.where("archived_at", "is", null);
      return (await q.orderBy("id", "asc").execute()).map(toExecuta);
    },
    async updateExecuta(id, p, now) {
      await db
        .updateTable("executas")
        .set({
          updated_at: now,
          ...(p.name === undefined ? {} : { name: p.name }),
          ...(p.description === undefined ? {} : { description: p.description }),
          ...(p.payload === undefined ? {} : { payload: JSON.stringify(p.payload) }),
          ...(p.visibility === undefined ? {} : { visibility: p.visibility }),
          ...(p.firstPromotedAt === undefined ? {} : { first_promoted_at: p.firstPromotedAt }),
        })
        .where("id", "=", id)
        .execute();
    },
    async archiveExecuta(id, now) {
      await db
        .updateTable("executas")
        .set({ archived_at: now, updated_at: now })
        .where("id", "=", id)
        .execute();
      await db.deleteFrom("executa_drafts").where("committed_executa_id", "=", id).execute();
    },
    async deleteExecuta(id) {
      // Explicit deletes, not only ON DELETE CASCADE: SQLite enforces foreign keys per connection.
      await db.deleteFrom("executa_drafts").where("committed_executa_id", "=", id).execute();
      await db.deleteFrom("executa_versions").where("executa_id", "=", id).execute();
      await db.deleteFrom("executas").where("id", "=", id).execute();
    },
    async listVersions(executaId) {
      const rows = await db
        .selectFrom("executa_versions")
        .selectAll()
        .where("executa_id", "=", executaId)
        .orderBy("id", "asc")
        .execute();
      return rows.map(toVersion);
    },
    async createVersion(v, now) {
      const row = await orDuplicate(
        db
          .insertInto("executa_versions")
          .values({
            executa_id: v.executaId,
            version: v.version,
            content_hash: v.contentHash,
            snapshot_hash: v.snapshotHash,
            snapshot: JSON.stringify(v.snapshot),
            frozen_by: v.frozenBy,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toVersion(row);
    },
    async deleteVersion(executaId, versionId) {
      const res = await db
        .deleteFrom("executa_versions")
        .where("id", "=", versionId)
        .where("executa_id", "=", executaId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },
    transaction: (fn) =>
      db.isTransaction ? fn(store) : db.transaction().execute((trx) => fn(sqlExecutaStore(trx))),
  };
  return store;
}
