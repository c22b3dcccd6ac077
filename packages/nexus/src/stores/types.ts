// Stores are interfaces; routes and admin commands see only these. The SQL implementation
// (sql-stores.ts) serves both dialects. The token-minting stores keep interface and both
// implementations in one file each (signing-key-store.ts, dev-session-store.ts).
import type { DevSessionStore } from "./dev-session-store.js";
import type { EmailVerificationStore } from "./email-verification-store.js";
import type { SigningKeyStore } from "./signing-key-store.js";

export type DeveloperState = "not_developer" | "verified" | "revoked";

export interface User {
  id: number;
  email: string;
  isAdmin: boolean;
  isVerified: boolean;
  /** Spec S3: not_developer → verified → (admin revoke) revoked → (admin restore) verified. */
  developerState: DeveloperState;
  developerActivatedAt: number | null;
  developerTosVersion: string | null;
  handle: string | null;
  createdAt: number;
}

export interface NewUser {
  email: string;
  passwordHash: string;
  isAdmin?: boolean;
  isVerified?: boolean;
  developer?: boolean;
  tosVersion?: string | null;
  handle?: string | null;
}

export interface UserStore {
  /** Throws NexusError `email_taken` / `handle_taken`. */
  create(user: NewUser, now: number): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  /** With the stored hash, for sign-in only. */
  findCredentials(email: string): Promise<{ user: User; passwordHash: string } | undefined>;
  list(): Promise<User[]>;
  setPassword(id: number, passwordHash: string, now: number): Promise<void>;
  /** Grant or restore Verified Developer (admin). */
  grantDeveloper(id: number, tosVersion: string | null, now: number): Promise<void>;
  revokeDeveloper(id: number, now: number): Promise<void>;
  /**
   * Throws NexusError `handle_taken` when another user holds `handle` or released it less than
   * HANDLE_FREEZE_MS ago (`reason: "HANDLE_FROZEN"`); the user's old handle is frozen in turn.
   */
  setHandle(id: number, handle: string, now: number): Promise<void>;
  /** Marks the email verified (admin; a user does it with a verification link). */
  markVerified(id: number, now: number): Promise<void>;
}

/** A signed-in browser of a user, as the settings page lists it (never the token or its hash). */
export interface ActiveSession {
  id: number;
  createdAt: number;
  expiresAt: number;
  /** Whether this is the session the request came with. */
  current: boolean;
}

/** Sessions listed per user at most (newest first): a person has a few browsers, not thousands. */
export const SESSIONS_LIST_MAX = 100;

export interface SessionStore {
  create(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void>;
  /** The user's unexpired, unrevoked sessions, newest first; `currentHash` marks the caller's. */
  listForUser(userId: number, now: number, currentHash?: string): Promise<ActiveSession[]>;
  /** Revokes one of the user's sessions; false when it is not theirs or not active. */
  revokeById(userId: number, id: number, now: number): Promise<boolean>;
  /** Revokes every active session of the user but `keepHash`'s; how many. */
  revokeOthers(userId: number, keepHash: string, now: number): Promise<number>;
  /** The user of an unexpired, unrevoked session. */
  findUser(tokenHash: string, now: number): Promise<User | undefined>;
  revoke(tokenHash: string, now: number): Promise<void>;
  revokeAllForUser(userId: number, now: number): Promise<void>;
}

export interface DevToken {
  id: number;
  userId: number;
  jti: string;
  label: string | null;
  scopes: string[];
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface NewDevToken {
  userId: number;
  tokenHash: string;
  jti: string;
  label: string | null;
  scopes: string[];
  expiresAt: number;
}

export interface TokenStore {
  create(token: NewDevToken, now: number): Promise<DevToken>;
  findByHash(tokenHash: string): Promise<DevToken | undefined>;
  /** The token and its user in one look-up (every PAT-authenticated request). */
  findWithUser(tokenHash: string): Promise<{ token: DevToken; user: User } | undefined>;
  touch(id: number, now: number): Promise<void>;
  /** Most recent first. */
  list(userId: number, includeRevoked: boolean): Promise<DevToken[]>;
  /** False when the token is not the user's (or does not exist). Revoking twice is a no-op. */
  revoke(userId: number, id: number, now: number): Promise<boolean>;
}

export type DeviceStatus = "pending" | "approved" | "consumed";

export interface DeviceCode {
  id: number;
  userCode: string;
  status: DeviceStatus;
  userId: number | null;
  scopes: string[];
  createdAt: number;
  expiresAt: number;
}

export interface DeviceStore {
  create(
    d: { deviceCodeHash: string; userCode: string; scopes: string[]; expiresAt: number },
    now: number,
  ): Promise<DeviceCode>;
  findByHash(deviceCodeHash: string): Promise<DeviceCode | undefined>;
  findByUserCode(userCode: string): Promise<DeviceCode | undefined>;
  /** pending and unexpired → approved by `userId`; false otherwise. */
  approve(id: number, userId: number, now: number): Promise<boolean>;
  /** approved → consumed exactly once; false if someone else consumed it first. */
  consume(id: number): Promise<boolean>;
}

export interface Stores {
  users: UserStore;
  sessions: SessionStore;
  tokens: TokenStore;
  devices: DeviceStore;
  signingKeys: SigningKeyStore;
  devSessions: DevSessionStore;
  emailVerifications: EmailVerificationStore;
  /** Runs `fn` with stores bound to one database transaction. */
  transaction<T>(fn: (stores: Stores) => Promise<T>): Promise<T>;
}
