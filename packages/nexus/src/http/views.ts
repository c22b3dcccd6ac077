// Wire shapes of stored objects: snake_case, ISO-8601 timestamps, numeric ids.
import type { DevToken, User } from "../stores/types.js";

/** Epoch ms as the ISO text every JSON view shows; null stays null. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function userView(u: User) {
  return {
    id: u.id,
    email: u.email,
    is_admin: u.isAdmin,
    is_verified: u.isVerified,
    is_verified_developer: u.developerState === "verified",
    developer_state: u.developerState,
    developer_activated_at: iso(u.developerActivatedAt),
    developer_tos_version: u.developerTosVersion,
    developer_handle: u.handle,
    created_at: iso(u.createdAt),
  };
}

export function tokenView(t: DevToken) {
  return {
    id: t.id,
    jti: t.jti,
    label: t.label,
    scopes: t.scopes,
    created_at: iso(t.createdAt),
    expires_at: iso(t.expiresAt),
    last_used_at: iso(t.lastUsedAt),
    revoked_at: iso(t.revokedAt),
  };
}
