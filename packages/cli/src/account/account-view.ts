// What whoami and doctor say about a saved account, without its PAT: scopes as a list, expiry as
// a date and whether it has passed.
import type { SavedAccount } from "./credentials-file.js";

export interface AccountView {
  host: string;
  current: boolean;
  user_id: number | string | null;
  email: string | null;
  scopes: string[];
  issued_at: number | null;
  /** Unix seconds; null when the file does not say. */
  expires_at: number | null;
  expired: boolean;
}

/** The published CLI accepts an array or a comma string. */
export function scopeList(scopes: unknown): string[] {
  if (Array.isArray(scopes)) return scopes.map(String);
  if (typeof scopes === "string") {
    return scopes
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter((s) => s !== "");
  }
  return [];
}

export function accountView(account: SavedAccount, current: boolean, nowMs: number): AccountView {
  const expires =
    typeof account.expires_at === "number" && account.expires_at > 0 ? account.expires_at : null;
  return {
    host: account.host,
    current,
    user_id: account.user_id ?? null,
    email: typeof account.email === "string" ? account.email : null,
    scopes: scopeList(account.scopes),
    issued_at: typeof account.issued_at === "number" ? account.issued_at : null,
    expires_at: expires,
    expired: expires !== null && expires * 1000 < nowMs,
  };
}

/** `2027-03-01 (in 89 days)`, `2026-01-02 (expired 3 days ago)`, `unknown`. */
export function describeExpiry(expiresAtS: number | null, nowMs: number): string {
  if (expiresAtS === null) return "unknown";
  const date = new Date(expiresAtS * 1000).toISOString().slice(0, 10);
  const days = Math.round((expiresAtS * 1000 - nowMs) / 86_400_000);
  if (expiresAtS * 1000 < nowMs)
    return `${date} (expired ${-days} day${days === -1 ? "" : "s"} ago)`;
  return `${date} (in ${days} day${days === 1 ? "" : "s"})`;
}
