import type { Kysely, Selectable } from "kysely";
import { NexusError } from "../core/errors.js";
import { HANDLE_FREEZE_MS, handleFrozenError } from "../auth/handle-rules.js";
import { precompiled } from "../db/precompiled.js";
import { sqlDevSessionStore } from "./dev-session-store.js";
import { sqlEmailVerificationStore } from "./email-verification-store.js";
import { sqlSigningKeyStore } from "./signing-key-store.js";
import type { Database, DevTokensTable, DeviceCodesTable, UsersTable } from "../db/schema.js";
import type {
  DevToken,
  DeviceCode,
  DeviceStatus,
  DeviceStore,
  SessionStore,
  Stores,
  TokenStore,
  User,
  UserStore,
} from "./types.js";
import { SESSIONS_LIST_MAX } from "./types.js";

/** SQLite `SQLITE_CONSTRAINT_UNIQUE` or PostgreSQL `23505`, naming the column when it can. */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: string; message?: string; detail?: string; constraint?: string };
  if (e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "23505") {
    return `${e.message ?? ""} ${e.detail ?? ""} ${e.constraint ?? ""}`;
  }
  return undefined;
}

const toUser = (r: Selectable<UsersTable>): User => ({
  id: r.id,
  email: r.email,
  isAdmin: r.is_admin === 1,
  isVerified: r.is_verified === 1,
  developerState:
    r.developer_revoked_at !== null
      ? "revoked"
      : r.is_verified_developer === 1
        ? "verified"
        : "not_developer",
  developerActivatedAt: r.developer_activated_at,
  developerTosVersion: r.developer_tos_version,
  handle: r.developer_handle,
  createdAt: r.created_at,
});

const toToken = (r: Selectable<DevTokensTable>): DevToken => ({
  id: r.id,
  userId: r.user_id,
  jti: r.jti,
  label: r.label,
  scopes: JSON.parse(r.scopes) as string[],
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

const toDevice = (r: Selectable<DeviceCodesTable>): DeviceCode => ({
  id: r.id,
  userCode: r.user_code,
  status: r.status as DeviceStatus,
  userId: r.user_id,
  scopes: JSON.parse(r.scopes) as string[],
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** Throws when someone other than `userId` released `handle` and its freeze still runs. */
async function assertNotFrozen(
  db: Kysely<Database>,
  handle: string,
  userId: number | undefined,
  now: number,
): Promise<void> {
  let q = db
    .selectFrom("handle_releases")
    .select((eb) => eb.fn.max("frozen_until").as("until"))
    .where("handle", "=", handle)
    .where("frozen_until", ">", now);
  if (userId !== undefined) q = q.where("user_id", "<>", userId);
  const r = await q.executeTakeFirst();
  if (r?.until != null) throw handleFrozenError(handle, Number(r.until));
}

function sqlUserStore(db: Kysely<Database>): UserStore {
  const conflict = (err: unknown): never => {
    const what = uniqueViolation(err);
    if (what === undefined) throw err;
    if (/handle/.test(what)) throw new NexusError("handle_taken", "that handle is taken");
    throw new NexusError("email_taken", "an account with that email exists");
  };
  const inTx = <T>(fn: (tx: Kysely<Database>) => Promise<T>) =>
    db.isTransaction ? fn(db) : db.transaction().execute(fn);
  return {
    async create(u, now) {
      if (u.handle) await assertNotFrozen(db, u.handle, undefined, now);
      try {
        const row = await db
          .insertInto("users")
          .values({
            email: u.email.toLowerCase(),
            password_hash: u.passwordHash,
            is_admin: u.isAdmin ? 1 : 0,
            is_verified: u.isVerified ? 1 : 0,
            is_verified_developer: u.developer ? 1 : 0,
            developer_activated_at: u.developer ? now : null,
            developer_tos_version: u.developer ? (u.tosVersion ?? null) : null,
            developer_revoked_at: null,
            developer_handle: u.handle ?? null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (err) {
        return conflict(err);
      }
    },
    async findById(id) {
      const r = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      return r && toUser(r);
    },
    async findCredentials(email) {
      const r = await db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", email.toLowerCase())
        .executeTakeFirst();
      return r && { user: toUser(r), passwordHash: r.password_hash };
    },
    async list() {
      const rows = await db.selectFrom("users").selectAll().orderBy("id").execute();
      return rows.map(toUser);
    },
    async setPassword(id, passwordHash, now) {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: now })
        .where("id", "=", id)
        .execute();
    },
    async grantDeveloper(id, tosVersion, now) {
      await db
        .updateTable("users")
        .set((eb) => ({
          is_verified_developer: 1,
          developer_revoked_at: null,
          developer_activated_at: eb.fn.coalesce("developer_activated_at", eb.val(now)),
          developer_tos_version: tosVersion ?? eb.ref("developer_tos_version"),
          updated_at: now,
        }))
        .where("id", "=", id)
        .execute();
    },
    async revokeDeveloper(id, now) {
      await db
        .updateTable("users")
        .set({ is_verified_developer: 0, developer_revoked_at: now, updated_at: now })
        .where("id", "=", id)
        .execute();
    },
    async setHandle(id, handle, now) {
      try {
        await inTx(async (tx) => {
          await assertNotFrozen(tx, handle, id, now);
          const before = await tx
            .selectFrom("users")
            .select("developer_handle")
            .where("id", "=", id)
            .executeTakeFirst();
          const old = before?.developer_handle ?? null;
          if (old === handle) return;
          await tx
            .updateTable("users")
            .set({ developer_handle: handle, updated_at: now })
            .where("id", "=", id)
            .execute();
          // Taking back one's own frozen handle ends its freeze; the name left behind starts one.
          await tx
            .deleteFrom("handle_releases")
            .where("handle", "=", handle)
            .where("user_id", "=", id)
            .execute();
          if (old !== null) {
            await tx
              .insertInto("handle_releases")
              .values({
                handle: old,
                user_id: id,
                released_at: now,
                frozen_until: now + HANDLE_FREEZE_MS,
              })
              .execute();
          }
        });
      } catch (err) {
        conflict(err);
      }
    },
    async markVerified(id, now) {
      await db
        .updateTable("users")
        .set({ is_verified: 1, updated_at: now })
        .where("id", "=", id)
        .execute();
    },
  };
}

function sqlSessionStore(db: Kysely<Database>): SessionStore {
  // Every cookie-authenticated request asks this: one join, compiled once.
  const findSessionUser = precompiled(db, 2, (tokenHash: string, now: number) =>
    db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .selectAll("users")
      .where("sessions.token_hash", "=", tokenHash)
      .where("sessions.revoked_at", "is", null)
      .where("sessions.expires_at", ">", now)
      .limit(1),
  );
  return {
    async create(userId, tokenHash, now, expiresAt) {
      await db
        .insertInto("sessions")
        .values({
          user_id: userId,
          token_hash: tokenHash,
          created_at: now,
          expires_at: expiresAt,
          revoked_at: null,
        })
        .execute();
    },
    async findUser(tokenHash, now) {
      const [r] = await findSessionUser(tokenHash, now);
      return r && toUser(r);
    },
    async listForUser(userId, now, currentHash) {
      const rows = await db
        .selectFrom("sessions")
        .select(["id", "token_hash", "created_at", "expires_at"])
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(SESSIONS_LIST_MAX)
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        createdAt: Number(r.created_at),
        expiresAt: Number(r.expires_at),
        current: r.token_hash === currentHash,
      }));
    },
    async revokeById(userId, id, now) {
      const r = await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async revokeOthers(userId, keepHash, now) {
      const r = await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("token_hash", "!=", keepHash)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async revoke(tokenHash, now) {
      await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("token_hash", "=", tokenHash)
        .where("revoked_at", "is", null)
        .execute();
    },
    async revokeAllForUser(userId, now) {
      await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    },
  };
}

function sqlTokenStore(db: Kysely<Database>): TokenStore {
  // Every PAT-authenticated request asks this: one join, compiled once.
  const findTokenUser = precompiled(db, 1, (tokenHash: string) =>
    db
      .selectFrom("dev_tokens as t")
      .innerJoin("users", "users.id", "t.user_id")
      .selectAll("users")
      .select([
        "t.id as t_id",
        "t.user_id as t_user_id",
        "t.token_hash as t_token_hash",
        "t.jti as t_jti",
        "t.label as t_label",
        "t.scopes as t_scopes",
        "t.created_at as t_created_at",
        "t.expires_at as t_expires_at",
        "t.last_used_at as t_last_used_at",
        "t.revoked_at as t_revoked_at",
      ])
      .where("t.token_hash", "=", tokenHash)
      .limit(1),
  );
  return {
    async create(t, now) {
      const row = await db
        .insertInto("dev_tokens")
        .values({
          user_id: t.userId,
          token_hash: t.tokenHash,
          jti: t.jti,
          label: t.label,
          scopes: JSON.stringify(t.scopes),
          created_at: now,
          expires_at: t.expiresAt,
          last_used_at: null,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toToken(row);
    },
    async findByHash(tokenHash) {
      const r = await db
        .selectFrom("dev_tokens")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return r && toToken(r);
    },
    async findWithUser(tokenHash) {
      const [r] = await findTokenUser(tokenHash);
      if (!r) return undefined;
      const token: Selectable<DevTokensTable> = {
        id: r.t_id,
        user_id: r.t_user_id,
        token_hash: r.t_token_hash,
        jti: r.t_jti,
        label: r.t_label,
        scopes: r.t_scopes,
        created_at: r.t_created_at,
        expires_at: r.t_expires_at,
        last_used_at: r.t_last_used_at,
        revoked_at: r.t_revoked_at,
      };
      return { token: toToken(token), user: toUser(r) };
    },
    async touch(id, now) {
      await db.updateTable("dev_tokens").set({ last_used_at: now }).where("id", "=", id).execute();
    },
    async list(userId, includeRevoked) {
      let q = db.selectFrom("dev_tokens").selectAll().where("user_id", "=", userId);
      if (!includeRevoked) q = q.where("revoked_at", "is", null);
      const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").execute();
      return rows.map(toToken);
    },
    async revoke(userId, id, now) {
      const owned = await db
        .selectFrom("dev_tokens")
        .select("id")
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!owned) return false;
      await db
        .updateTable("dev_tokens")
        .set({ revoked_at: now })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      return true;
    },
  };
}

function sqlDeviceStore(db: Kysely<Database>): DeviceStore {
  return {
    async create(d, now) {
      const row = await db
        .insertInto("device_codes")
        .values({
          device_code_hash: d.deviceCodeHash,
          user_code: d.userCode,
          status: "pending",
          user_id: null,
          scopes: JSON.stringify(d.scopes),
          created_at: now,
          expires_at: d.expiresAt,
          approved_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toDevice(row);
    },
    async findByHash(hash) {
      const r = await db
        .selectFrom("device_codes")
        .selectAll()
        .where("device_code_hash", "=", hash)
        .executeTakeFirst();
      return r && toDevice(r);
    },
    async findByUserCode(code) {
      const r = await db
        .selectFrom("device_codes")
        .selectAll()
        .where("user_code", "=", code)
        .executeTakeFirst();
      return r && toDevice(r);
    },
    async approve(id, userId, now) {
      const res = await db
        .updateTable("device_codes")
        .set({ status: "approved", user_id: userId, approved_at: now })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async consume(id) {
      const res = await db
        .updateTable("device_codes")
        .set({ status: "consumed" })
        .where("id", "=", id)
        .where("status", "=", "approved")
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}

export function sqlStores(db: Kysely<Database>): Stores {
  return {
    users: sqlUserStore(db),
    sessions: sqlSessionStore(db),
    tokens: sqlTokenStore(db),
    devices: sqlDeviceStore(db),
    signingKeys: sqlSigningKeyStore(db),
    devSessions: sqlDevSessionStore(db),
    emailVerifications: sqlEmailVerificationStore(db),
    transaction: (fn) =>
      db.isTransaction ? fn(sqlStores(db)) : db.transaction().execute((trx) => fn(sqlStores(trx))),
  };
}
