// Revoking a saved account's own PAT on its server, best effort: logout does it for the accounts
// it forgets, login for the token a new login replaces. Only possible when the login recorded the
// token's id (`token_id`; the published CLI does not).
import type { SavedAccount } from "./credentials-file.js";
import { NexusClient } from "./nexus-client.js";

/** Neither logout nor login may hang on a server that is gone. */
export const REVOKE_TIMEOUT_MS = 5_000;

export type RevokeOutcome = "revoked" | "unknown-id" | `failed: ${string}`;

export async function revokeSavedToken(account: SavedAccount): Promise<RevokeOutcome> {
  if (typeof account.token_id !== "number") return "unknown-id";
  const client = new NexusClient({ host: account.host, pat: account.pat });
  try {
    await client.post(`/api/v1/anna-apps/dev/tokens/${account.token_id}/revoke`, {
      timeoutMs: REVOKE_TIMEOUT_MS,
      what: "revoking the saved token",
    });
    return "revoked";
  } catch (error) {
    // Already revoked or expired: the token is dead, which is what the caller wants.
    const code = (error as { code?: unknown }).code;
    if (code === "token_revoked" || code === "token_expired") return "revoked";
    return `failed: ${(error as Error).message}`;
  }
}
