// The `app_session_token` of a window's or a plugin's session (`copilot_sessions`): one place
// decides its audience, binding and claims, so create and refresh cannot differ. PAT sessions'
// tokens are `tokens/dev-mint.ts`'s (claim `sid`); these carry `cps`.
import { COPILOT_SESSION_CLAIM } from "./copilot-auth.js";
import type { CopilotSessionRow } from "./copilot-session-store.js";
import { APP_SESSION_AUDIENCE, APP_SESSION_TOKEN_TYPE } from "../tokens/audiences.js";
import { MAX_TOKEN_TTL_S, type SigningKeyring } from "../tokens/keyring.js";
import type { MintedToken } from "../tokens/dev-mint.js";

export async function mintCopilotSessionToken(
  keyring: SigningKeyring,
  row: CopilotSessionRow,
  now: number,
): Promise<MintedToken> {
  // Never past the session's hard deadline.
  const ttl = Math.max(1, Math.min(MAX_TOKEN_TTL_S, Math.floor((row.maxLifetimeAt - now) / 1000)));
  const token = await keyring.mint({
    userId: String(row.userId),
    toolId: row.toolId,
    invokeId: row.uuid,
    audience: APP_SESSION_AUDIENCE,
    ttlSeconds: ttl,
    extra: {
      [COPILOT_SESSION_CLAIM]: row.uuid,
      type: APP_SESSION_TOKEN_TYPE,
      app_session_uuid: row.uuid,
      kind: row.kind,
      submode: row.submode,
      app_slug: row.appSlug,
    },
  });
  return { token, expiresInS: ttl, expiresAt: Math.floor(now / 1000) * 1000 + ttl * 1000 };
}
