// App sessions the copilot endpoints mint without a PAT: `POST /copilot/app/sessions` with a
// window token, `…/sessions/from_sampling` with a plugin's sampling token. The same lifecycle as
// dev sessions (L7100–7120): an idle deadline every run slides, a hard one nothing does, revoked
// rows kept for `list({include_expired})`. Every lookup is by (user, uuid).
import type { Kysely, Selectable } from "kysely";
import type { CopilotSessionsTable } from "../db/schema-copilot.js";
import type { Database } from "../db/schema.js";

export type CopilotSessionOrigin = "window" | "sampling";

export interface CopilotSessionClaims {
  fixed_client_id?: string | null;
  system_prompt?: string | null;
  quota_caps?: Record<string, unknown>;
  /** What `agent/session.create` resolved (R32): `["*"]` inherits the host's tools. */
  granted_tools?: string[];
  /** The idle window every run and refresh slides, when the creator chose one (R32). */
  ttl_seconds?: number;
}

export interface CopilotSessionRow {
  uuid: string;
  userId: number;
  origin: CopilotSessionOrigin;
  kind: "agent" | "complete";
  submode: "auto" | "fixed" | null;
  appSlug: string;
  toolId: string;
  mintedBy: string;
  label: string | null;
  claims: CopilotSessionClaims;
  createdAt: number;
  expiresAt: number;
  maxLifetimeAt: number;
  revokedAt: number | null;
}

const toRow = (r: Selectable<CopilotSessionsTable>): CopilotSessionRow => ({
  uuid: r.uuid,
  userId: r.user_id,
  origin: r.origin as CopilotSessionOrigin,
  kind: r.kind as CopilotSessionRow["kind"],
  submode: r.submode as CopilotSessionRow["submode"],
  appSlug: r.app_slug,
  toolId: r.tool_id,
  mintedBy: r.minted_by,
  label: r.label,
  claims: JSON.parse(r.claims) as CopilotSessionClaims,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  maxLifetimeAt: Number(r.max_lifetime_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

export class CopilotSessionStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async create(s: Omit<CopilotSessionRow, "revokedAt">): Promise<CopilotSessionRow> {
    await this.#db
      .insertInto("copilot_sessions")
      .values({
        uuid: s.uuid,
        user_id: s.userId,
        origin: s.origin,
        kind: s.kind,
        submode: s.submode,
        app_slug: s.appSlug,
        tool_id: s.toolId,
        minted_by: s.mintedBy,
        label: s.label,
        claims: JSON.stringify(s.claims),
        created_at: s.createdAt,
        expires_at: s.expiresAt,
        max_lifetime_at: s.maxLifetimeAt,
        revoked_at: null,
      })
      .execute();
    return { ...s, revokedAt: null };
  }

  async find(userId: number, uuid: string): Promise<CopilotSessionRow | undefined> {
    const r = await this.#db
      .selectFrom("copilot_sessions")
      .selectAll()
      .where("user_id", "=", userId)
      .where("uuid", "=", uuid)
      .executeTakeFirst();
    return r ? toRow(r) : undefined;
  }

  /** Moves the idle deadline (never past the hard one); false when not live at `now`. */
  async slide(userId: number, uuid: string, now: number, idleMs: number): Promise<boolean> {
    const s = await this.find(userId, uuid);
    if (!s || s.revokedAt !== null || s.expiresAt <= now || s.maxLifetimeAt <= now) return false;
    await this.#db
      .updateTable("copilot_sessions")
      .set({ expires_at: Math.min(now + idleMs, s.maxLifetimeAt) })
      .where("user_id", "=", userId)
      .where("uuid", "=", uuid)
      .execute();
    return true;
  }

  /** Replaces the claims of the user's session (a refresh that changes its idle window). */
  async setClaims(userId: number, uuid: string, claims: CopilotSessionClaims): Promise<void> {
    await this.#db
      .updateTable("copilot_sessions")
      .set({ claims: JSON.stringify(claims) })
      .where("user_id", "=", userId)
      .where("uuid", "=", uuid)
      .execute();
  }

  /** Token-free release (L7128): works on expired sessions too; false if not the user's. */
  async revoke(userId: number, uuid: string, now: number): Promise<boolean> {
    const r = await this.#db
      .updateTable("copilot_sessions")
      .set({ revoked_at: now })
      .where("user_id", "=", userId)
      .where("uuid", "=", uuid)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) return true;
    return (await this.find(userId, uuid)) !== undefined;
  }

  /** Newest first; one app's sessions only (L7076: never another origin's). */
  async list(
    userId: number,
    appSlug: string,
    opts: { includeExpired: boolean; limit: number; now: number },
  ): Promise<CopilotSessionRow[]> {
    let q = this.#db
      .selectFrom("copilot_sessions")
      .selectAll()
      .where("user_id", "=", userId)
      .where("app_slug", "=", appSlug);
    if (!opts.includeExpired) {
      q = q
        .where("revoked_at", "is", null)
        .where("expires_at", ">", opts.now)
        .where("max_lifetime_at", ">", opts.now);
    }
    const rows = await q
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(opts.limit)
      .execute();
    return rows.map(toRow);
  }

  /**
   * One executa's (or one window app's, `app:<id>`) live-or-expired sessions of a user, newest
   * first: what the agent service lists, never another tool's (L10253). Deleted ones never.
   */
  async listForTool(
    userId: number,
    toolId: string,
    opts: { includeExpired: boolean; limit: number; now: number },
  ): Promise<CopilotSessionRow[]> {
    let q = this.#db
      .selectFrom("copilot_sessions")
      .selectAll()
      .where("user_id", "=", userId)
      .where("tool_id", "=", toolId)
      .where("revoked_at", "is", null);
    if (!opts.includeExpired) {
      q = q.where("expires_at", ">", opts.now).where("max_lifetime_at", ">", opts.now);
    }
    const rows = await q
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(opts.limit)
      .execute();
    return rows.map(toRow);
  }

  /** When each session last ran (its newest stored message), by uuid; absent when never. */
  async lastRunAt(userId: number, uuids: readonly string[]): Promise<Map<string, number>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("copilot_messages")
      .select(["session_uuid", (eb) => eb.fn.max("created_at").as("at")])
      .where("user_id", "=", userId)
      .where("session_uuid", "in", [...uuids])
      .groupBy("session_uuid")
      .execute();
    return new Map(rows.map((r) => [r.session_uuid, Number(r.at)]));
  }
}

export function isLiveSession(s: CopilotSessionRow, now: number): boolean {
  return s.revokedAt === null && s.expiresAt > now && s.maxLifetimeAt > now;
}
