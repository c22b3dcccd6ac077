// Dev sessions: what the PAT-authed mint endpoints create (`POST …/dev/session/mint`,
// `…/dev/storage/mint`). Every per-invoke token minted for one carries its uuid, so revoking the
// session, or the PAT that made it, ends its tokens at the verifier. Interface, SQL
// implementation (both dialects) and an in-memory one with the same semantics.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../db/schema.js";
import type { DevSessionsTable } from "../db/schema-tokens.js";

export type DevSessionKind = "complete" | "agent" | "storage";

export interface DevSession {
  id: number;
  uuid: string;
  userId: number;
  devTokenId: number;
  kind: DevSessionKind;
  submode: string | null;
  appSlug: string;
  toolId: string;
  label: string | null;
  /** Family claims every token of this session carries (`allowed_scopes`, `max_calls`, …). */
  claims: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
  maxLifetimeAt: number;
  lastMintedAt: number;
  revokedAt: number | null;
}

export type NewDevSession = Omit<DevSession, "id" | "createdAt" | "lastMintedAt" | "revokedAt">;

export interface DevSessionFilter {
  appSlug?: string | undefined;
  toolId?: string | undefined;
  kinds: readonly DevSessionKind[];
  /** Include sessions past their idle or hard deadline (revoked ones are never listed). */
  includeExpired: boolean;
}

export interface DevSessionStore {
  create(session: NewDevSession, now: number): Promise<DevSession>;
  /** The user's session; another user's is indistinguishable from a missing one. */
  find(userId: number, uuid: string): Promise<DevSession | undefined>;
  /** For the token verifier: the session and whether the PAT that minted it was revoked. */
  findForVerifier(uuid: string): Promise<{ session: DevSession; patRevoked: boolean } | undefined>;
  /** A re-mint: moves the idle deadline (never past the hard one). False if not live at `now`. */
  slide(id: number, now: number, expiresAt: number): Promise<boolean>;
  /** False if the session is not the user's. Revoking twice is a no-op that returns true. */
  revoke(userId: number, uuid: string, now: number): Promise<boolean>;
  /** Revokes the user's unrevoked sessions matching `filter` (expired ones only, if asked). */
  revokeMany(
    userId: number,
    filter: Omit<DevSessionFilter, "includeExpired"> & { onlyExpired: boolean },
    now: number,
  ): Promise<number>;
  /** Newest first, unrevoked only. */
  list(userId: number, filter: DevSessionFilter, limit: number, now: number): Promise<DevSession[]>;
}

const toSession = (r: Selectable<DevSessionsTable>): DevSession => ({
  id: r.id,
  uuid: r.uuid,
  userId: r.user_id,
  devTokenId: r.dev_token_id,
  kind: r.kind as DevSessionKind,
  submode: r.submode,
  appSlug: r.app_slug,
  toolId: r.tool_id,
  label: r.label,
  claims: JSON.parse(r.claims) as Record<string, unknown>,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  maxLifetimeAt: r.max_lifetime_at,
  lastMintedAt: r.last_minted_at,
  revokedAt: r.revoked_at,
});

/** Live: unrevoked and before both deadlines. */
export function isLive(s: DevSession, now: number): boolean {
  return s.revokedAt === null && s.expiresAt > now && s.maxLifetimeAt > now;
}

export function sqlDevSessionStore(db: Kysely<Database>): DevSessionStore {
  const mine = (
    userId: number,
    f: { appSlug?: string | undefined; toolId?: string | undefined },
  ) => {
    let q = db.selectFrom("dev_sessions").where("user_id", "=", userId);
    if (f.appSlug !== undefined) q = q.where("app_slug", "=", f.appSlug);
    if (f.toolId !== undefined) q = q.where("tool_id", "=", f.toolId);
    return q;
  };
  const find = async (userId: number, uuid: string) => {
    const r = await db
      .selectFrom("dev_sessions")
      .selectAll()
      .where("uuid", "=", uuid)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return r && toSession(r);
  };
  return {
    find,
    async create(s, now) {
      const row = await db
        .insertInto("dev_sessions")
        .values({
          uuid: s.uuid,
          user_id: s.userId,
          dev_token_id: s.devTokenId,
          kind: s.kind,
          submode: s.submode,
          app_slug: s.appSlug,
          tool_id: s.toolId,
          label: s.label,
          claims: JSON.stringify(s.claims),
          created_at: now,
          expires_at: s.expiresAt,
          max_lifetime_at: s.maxLifetimeAt,
          last_minted_at: now,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSession(row);
    },
    async findForVerifier(uuid) {
      const r = await db
        .selectFrom("dev_sessions")
        .innerJoin("dev_tokens", "dev_tokens.id", "dev_sessions.dev_token_id")
        .selectAll("dev_sessions")
        .select(["dev_tokens.revoked_at as pat_revoked_at"])
        .where("dev_sessions.uuid", "=", uuid)
        .executeTakeFirst();
      if (!r) return undefined;
      const { pat_revoked_at, ...row } = r;
      return { session: toSession(row), patRevoked: pat_revoked_at !== null };
    },
    async slide(id, now, expiresAt) {
      const res = await db
        .updateTable("dev_sessions")
        .set({ expires_at: expiresAt, last_minted_at: now })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .where("max_lifetime_at", ">", now)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async revoke(userId, uuid, now) {
      const owned = await find(userId, uuid);
      if (!owned) return false;
      await db
        .updateTable("dev_sessions")
        .set({ revoked_at: now })
        .where("id", "=", owned.id)
        .where("revoked_at", "is", null)
        .execute();
      return true;
    },
    async revokeMany(userId, f, now) {
      let q = db
        .updateTable("dev_sessions")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("kind", "in", [...f.kinds]);
      if (f.appSlug !== undefined) q = q.where("app_slug", "=", f.appSlug);
      if (f.toolId !== undefined) q = q.where("tool_id", "=", f.toolId);
      if (f.onlyExpired) {
        q = q.where((eb) => eb.or([eb("expires_at", "<=", now), eb("max_lifetime_at", "<=", now)]));
      }
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    async list(userId, f, limit, now) {
      let q = mine(userId, f)
        .selectAll()
        .where("revoked_at", "is", null)
        .where("kind", "in", [...f.kinds]);
      if (!f.includeExpired) {
        q = q.where("expires_at", ">", now).where("max_lifetime_at", ">", now);
      }
      const rows = await q.orderBy("id", "desc").limit(limit).execute();
      return rows.map(toSession);
    },
  };
}

/** `patRevoked(id)` answers for the PAT store this one sits beside. */
export function memoryDevSessionStore(
  patRevoked: (devTokenId: number) => boolean,
): DevSessionStore {
  const rows: DevSession[] = [];
  let nextId = 1;
  const copy = (s: DevSession): DevSession => structuredClone(s);
  const matches = (
    s: DevSession,
    userId: number,
    f: { appSlug?: string | undefined; toolId?: string | undefined; kinds: readonly string[] },
  ) =>
    s.userId === userId &&
    s.revokedAt === null &&
    f.kinds.includes(s.kind) &&
    (f.appSlug === undefined || s.appSlug === f.appSlug) &&
    (f.toolId === undefined || s.toolId === f.toolId);
  return {
    async create(s, now) {
      const row: DevSession = {
        ...structuredClone(s),
        id: nextId++,
        createdAt: now,
        lastMintedAt: now,
        revokedAt: null,
      };
      rows.push(row);
      return copy(row);
    },
    async find(userId, uuid) {
      const s = rows.find((r) => r.uuid === uuid && r.userId === userId);
      return s && copy(s);
    },
    async findForVerifier(uuid) {
      const s = rows.find((r) => r.uuid === uuid);
      return s && { session: copy(s), patRevoked: patRevoked(s.devTokenId) };
    },
    async slide(id, now, expiresAt) {
      const s = rows.find((r) => r.id === id);
      if (!s || !isLive(s, now)) return false;
      Object.assign(s, { expiresAt, lastMintedAt: now });
      return true;
    },
    async revoke(userId, uuid, now) {
      const s = rows.find((r) => r.uuid === uuid && r.userId === userId);
      if (!s) return false;
      s.revokedAt ??= now;
      return true;
    },
    async revokeMany(userId, f, now) {
      const hit = rows.filter((s) => matches(s, userId, f) && (!f.onlyExpired || !isLive(s, now)));
      for (const s of hit) s.revokedAt = now;
      return hit.length;
    },
    async list(userId, f, limit, now) {
      return rows
        .filter((s) => matches(s, userId, f) && (f.includeExpired || isLive(s, now)))
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy);
    },
  };
}
