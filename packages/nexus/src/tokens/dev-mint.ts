// Turning a dev session into a token: one place decides the audience, the binding and the claims
// a session's tokens carry, so a mint and a refresh of the same session cannot differ.
import { randomBytes } from "node:crypto";
import type { DevSession } from "../stores/dev-session-store.js";
import { APP_SESSION_AUDIENCE, APP_SESSION_TOKEN_TYPE, FAMILY_AUDIENCES } from "./audiences.js";
import { MAX_TOKEN_TTL_S, type SigningKeyring } from "./keyring.js";
import { SESSION_CLAIM } from "./verify-token.js";

/** `aps_<32 hex>`: the published CLI requires the prefix for agent sessions (real-world-cli.md D4). */
export function newSessionUuid(): string {
  return `aps_${randomBytes(16).toString("hex")}`;
}

/**
 * Tokens are bound to (user, tool_id, invoke_id) like per-invoke tokens. A dev session has no
 * invoke, so the session uuid stands in for it; without an executa the tool is `app:<slug>`.
 */
export function devToolId(appSlug: string, executaToolId: string | undefined): string {
  return executaToolId ?? `app:${appSlug}`;
}

export interface MintedToken {
  token: string;
  expiresInS: number;
  expiresAt: number;
}

export async function mintSessionToken(
  keyring: SigningKeyring,
  session: DevSession,
  now: number,
  ttlSeconds: number = MAX_TOKEN_TTL_S,
): Promise<MintedToken> {
  // Never past the session's hard deadline.
  const ttl = Math.max(
    1,
    Math.min(ttlSeconds, MAX_TOKEN_TTL_S, Math.floor((session.maxLifetimeAt - now) / 1000)),
  );
  const storage = session.kind === "storage";
  const token = await keyring.mint({
    userId: String(session.userId),
    toolId: session.toolId,
    invokeId: session.uuid,
    audience: storage ? FAMILY_AUDIENCES.storage : APP_SESSION_AUDIENCE,
    ttlSeconds: ttl,
    extra: {
      ...session.claims,
      [SESSION_CLAIM]: session.uuid,
      app_slug: session.appSlug,
      ...(storage
        ? {}
        : { type: APP_SESSION_TOKEN_TYPE, app_session_uuid: session.uuid, kind: session.kind }),
    },
  });
  return { token, expiresInS: ttl, expiresAt: Math.floor(now / 1000) * 1000 + ttl * 1000 };
}
