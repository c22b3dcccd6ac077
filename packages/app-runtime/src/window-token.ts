/** The window token's lifetime when it does not say (L6321: a 120 s JWT). */
export const WINDOW_TOKEN_TTL_MS = 120_000;
/** Refresh this long before expiry, so a call in flight never carries a dead token. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;
/** Never refresh more often than this, whatever a short-lived token says. */
export const MIN_TOKEN_REFRESH_DELAY_MS = 5_000;
/** After a failed refresh, try again this much later (while the runtime is open). */
export const TOKEN_REFRESH_RETRY_MS = 5_000;

/**
 * When a window token expires, in epoch ms: the JWT `exp` claim when the token is a readable JWT
 * (not verified here — the host does that), else `nowMs + WINDOW_TOKEN_TTL_MS`.
 */
export function tokenExpiresAtMs(token: string, nowMs: number): number {
  const parts = token.split(".");
  const payload = parts[1];
  if (parts.length === 3 && payload !== undefined) {
    try {
      const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
      const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
      const claims: unknown = JSON.parse(atob(padded));
      if (typeof claims === "object" && claims !== null) {
        const exp = (claims as Record<string, unknown>)["exp"];
        if (typeof exp === "number" && Number.isFinite(exp)) return exp * 1000;
      }
    } catch {
      // Not a JWT we can read: fall through to the spec's lifetime.
    }
  }
  return nowMs + WINDOW_TOKEN_TTL_MS;
}

/** Delay until the next refresh of a token expiring at `expiresAtMs`. */
export function refreshDelayMs(expiresAtMs: number, nowMs: number): number {
  return Math.max(MIN_TOKEN_REFRESH_DELAY_MS, expiresAtMs - TOKEN_REFRESH_MARGIN_MS - nowMs);
}

/**
 * A refreshed token as the page delivers it, in an `auth.refresh` answer or event:
 * `{token, expires_in?}` (seconds) or `{token, expires_at?}` (ISO or epoch seconds). Undefined
 * when there is no token.
 */
export function readRefreshedToken(
  value: unknown,
  nowMs: number,
): { token: string; expiresAtMs: number } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const token = record["token"] ?? record["t"];
  if (typeof token !== "string" || token === "") return undefined;
  const expiresIn = record["expires_in"];
  if (typeof expiresIn === "number" && Number.isFinite(expiresIn) && expiresIn > 0) {
    return { token, expiresAtMs: nowMs + expiresIn * 1000 };
  }
  const expiresAt = record["expires_at"];
  if (typeof expiresAt === "number" && Number.isFinite(expiresAt)) {
    return { token, expiresAtMs: expiresAt * 1000 };
  }
  if (typeof expiresAt === "string") {
    const parsed = Date.parse(expiresAt);
    if (Number.isFinite(parsed)) return { token, expiresAtMs: parsed };
  }
  return { token, expiresAtMs: tokenExpiresAtMs(token, nowMs) };
}
