// In-memory stores with the SQL stores' semantics (the same contract suite runs on both): for
// tests and tools that need accounts without a database. Each store call is atomic (one thread,
// no awaits inside); `transaction` runs its function directly and does not roll back on a throw.
import { NexusError } from "../core/errors.js";
import { HANDLE_FREEZE_MS, handleFrozenError } from "../auth/handle-rules.js";
import { memoryDevSessionStore } from "./dev-session-store.js";
import { memoryEmailVerificationStore } from "./email-verification-store.js";
import { memorySigningKeyStore } from "./signing-key-store.js";
import {
  SESSIONS_LIST_MAX,
  type DevToken,
  type DeviceCode,
  type Stores,
  type User,
} from "./types.js";

interface UserRow {
  user: User;
  passwordHash: string;
  revokedAt: number | null;
}

export function memoryStores(): Stores {
  const users = new Map<number, UserRow>();
  const sessions = new Map<
    string,
    { id: number; userId: number; createdAt: number; expiresAt: number; revokedAt: number | null }
  >();
  let nextSession = 1;
  const tokens = new Map<number, DevToken & { tokenHash: string }>();
  const devices = new Map<number, DeviceCode & { hash: string }>();
  let nextUser = 1;
  let nextToken = 1;
  let nextDevice = 1;
  const copy = <T extends object>(v: T): T => structuredClone(v);
  const publicToken = ({ tokenHash: _h, ...t }: DevToken & { tokenHash: string }): DevToken =>
    copy(t);
  const publicDevice = ({ hash: _h, ...d }: DeviceCode & { hash: string }): DeviceCode => copy(d);
  const byEmail = (email: string) =>
    [...users.values()].find((r) => r.user.email === email.toLowerCase());
  const handleTaken = (handle: string, except?: number) =>
    [...users.values()].some((r) => r.user.handle === handle && r.user.id !== except);
  const releases: { handle: string; userId: number; frozenUntil: number }[] = [];
  const assertNotFrozen = (handle: string, userId: number | undefined, now: number) => {
    const until = Math.max(
      0,
      ...releases
        .filter((r) => r.handle === handle && r.userId !== userId && r.frozenUntil > now)
        .map((r) => r.frozenUntil),
    );
    if (until > 0) throw handleFrozenError(handle, until);
  };

  const stores: Stores = {
    users: {
      async create(u, now) {
        if (byEmail(u.email))
          throw new NexusError("email_taken", "an account with that email exists");
        if (u.handle && handleTaken(u.handle))
          throw new NexusError("handle_taken", "that handle is taken");
        if (u.handle) assertNotFrozen(u.handle, undefined, now);
        const user: User = {
          id: nextUser++,
          email: u.email.toLowerCase(),
          isAdmin: u.isAdmin ?? false,
          isVerified: u.isVerified ?? false,
          developerState: u.developer ? "verified" : "not_developer",
          developerActivatedAt: u.developer ? now : null,
          developerTosVersion: u.developer ? (u.tosVersion ?? null) : null,
          handle: u.handle ?? null,
          createdAt: now,
        };
        users.set(user.id, { user, passwordHash: u.passwordHash, revokedAt: null });
        return copy(user);
      },
      async findById(id) {
        const r = users.get(id);
        return r && copy(r.user);
      },
      async findCredentials(email) {
        const r = byEmail(email);
        return r && { user: copy(r.user), passwordHash: r.passwordHash };
      },
      async list() {
        return [...users.values()].map((r) => copy(r.user));
      },
      async setPassword(id, hash) {
        const r = users.get(id);
        if (r) r.passwordHash = hash;
      },
      async grantDeveloper(id, tosVersion, now) {
        const r = users.get(id);
        if (!r) return;
        r.user.developerState = "verified";
        r.user.developerActivatedAt ??= now;
        if (tosVersion !== null) r.user.developerTosVersion = tosVersion;
      },
      async revokeDeveloper(id) {
        const r = users.get(id);
        if (r) r.user.developerState = "revoked";
      },
      async setHandle(id, handle, now) {
        if (handleTaken(handle, id)) throw new NexusError("handle_taken", "that handle is taken");
        assertNotFrozen(handle, id, now);
        const r = users.get(id);
        if (!r || r.user.handle === handle) return;
        for (let i = releases.length - 1; i >= 0; i--)
          if (releases[i]!.handle === handle && releases[i]!.userId === id) releases.splice(i, 1);
        if (r.user.handle !== null)
          releases.push({ handle: r.user.handle, userId: id, frozenUntil: now + HANDLE_FREEZE_MS });
        r.user.handle = handle;
      },
      async markVerified(id) {
        const r = users.get(id);
        if (r) r.user.isVerified = true;
      },
    },
    sessions: {
      async create(userId, tokenHash, now, expiresAt) {
        sessions.set(tokenHash, {
          id: nextSession++,
          userId,
          createdAt: now,
          expiresAt,
          revokedAt: null,
        });
      },
      async listForUser(userId, now, currentHash) {
        return [...sessions.entries()]
          .filter(([, s]) => s.userId === userId && s.revokedAt === null && s.expiresAt > now)
          .sort(([, a], [, b]) => b.createdAt - a.createdAt || b.id - a.id)
          .slice(0, SESSIONS_LIST_MAX)
          .map(([hash, s]) => ({
            id: s.id,
            createdAt: s.createdAt,
            expiresAt: s.expiresAt,
            current: hash === currentHash,
          }));
      },
      async revokeById(userId, id, now) {
        for (const s of sessions.values()) {
          if (s.id === id && s.userId === userId && s.revokedAt === null && s.expiresAt > now) {
            s.revokedAt = now;
            return true;
          }
        }
        return false;
      },
      async revokeOthers(userId, keepHash, now) {
        let n = 0;
        for (const [hash, s] of sessions) {
          if (s.userId === userId && hash !== keepHash && s.revokedAt === null) {
            s.revokedAt = now;
            n += 1;
          }
        }
        return n;
      },
      async findUser(tokenHash, now) {
        const s = sessions.get(tokenHash);
        const r = s && s.revokedAt === null && s.expiresAt > now ? users.get(s.userId) : undefined;
        return r && copy(r.user);
      },
      async revoke(tokenHash, now) {
        const s = sessions.get(tokenHash);
        if (s && s.revokedAt === null) s.revokedAt = now;
      },
      async revokeAllForUser(userId, now) {
        for (const s of sessions.values())
          if (s.userId === userId && s.revokedAt === null) s.revokedAt = now;
      },
    },
    tokens: {
      async create(t, now) {
        const row = {
          id: nextToken++,
          userId: t.userId,
          tokenHash: t.tokenHash,
          jti: t.jti,
          label: t.label,
          scopes: [...t.scopes],
          createdAt: now,
          expiresAt: t.expiresAt,
          lastUsedAt: null,
          revokedAt: null,
        };
        tokens.set(row.id, row);
        return publicToken(row);
      },
      async findByHash(hash) {
        const t = [...tokens.values()].find((x) => x.tokenHash === hash);
        return t && publicToken(t);
      },
      async findWithUser(hash) {
        const t = [...tokens.values()].find((x) => x.tokenHash === hash);
        const u = t && users.get(t.userId);
        return t && u && { token: publicToken(t), user: copy(u.user) };
      },
      async touch(id, now) {
        const t = tokens.get(id);
        if (t) t.lastUsedAt = now;
      },
      async list(userId, includeRevoked) {
        return [...tokens.values()]
          .filter((t) => t.userId === userId && (includeRevoked || t.revokedAt === null))
          .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
          .map(publicToken);
      },
      async revoke(userId, id, now) {
        const t = tokens.get(id);
        if (!t || t.userId !== userId) return false;
        t.revokedAt ??= now;
        return true;
      },
    },
    devices: {
      async create(d, now) {
        const row = {
          id: nextDevice++,
          hash: d.deviceCodeHash,
          userCode: d.userCode,
          status: "pending" as const,
          userId: null,
          scopes: [...d.scopes],
          createdAt: now,
          expiresAt: d.expiresAt,
        };
        devices.set(row.id, row);
        return publicDevice(row);
      },
      async findByHash(hash) {
        const d = [...devices.values()].find((x) => x.hash === hash);
        return d && publicDevice(d);
      },
      async findByUserCode(code) {
        const d = [...devices.values()].find((x) => x.userCode === code);
        return d && publicDevice(d);
      },
      async approve(id, userId, now) {
        const d = devices.get(id);
        if (!d || d.status !== "pending" || d.expiresAt <= now) return false;
        Object.assign(d, { status: "approved", userId });
        return true;
      },
      async consume(id) {
        const d = devices.get(id);
        if (!d || d.status !== "approved") return false;
        d.status = "consumed";
        return true;
      },
    },
    signingKeys: memorySigningKeyStore(),
    devSessions: memoryDevSessionStore((id) => (tokens.get(id)?.revokedAt ?? null) !== null),
    emailVerifications: memoryEmailVerificationStore((userId, email) => {
      const r = users.get(userId);
      if (!r || r.user.email !== email) return false;
      r.user.isVerified = true;
      return true;
    }),
    transaction: (fn) => fn(stores),
  };
  return stores;
}
