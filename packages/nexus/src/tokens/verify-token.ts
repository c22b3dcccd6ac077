// The one check every route that accepts a per-invoke token makes: the signature, issuer,
// audience, expiry and binding (SigningKeyring.verify), then that the dev session it was minted
// for (`sid`) is still live and its PAT not revoked, so `…/dev/session/revoke`, `revoke-all` and
// a PAT revocation end the session's tokens at once, not when they expire.
import { TokenError, type TokenBinding, type VerifiedToken } from "@anna-ai/executa-host";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import { type DevSession, isLive } from "../stores/dev-session-store.js";
import type { Stores } from "../stores/types.js";
import type { SigningKeyring } from "./keyring.js";

/** The claim naming the dev session a token belongs to. */
export const SESSION_CLAIM = "sid";

export interface VerifiedNexusToken extends VerifiedToken {
  /** Nexus's numeric user id (the token carries it as a string). */
  userIdNumber: number;
  session: DevSession | undefined;
}

export interface VerifyDeps {
  keyring: SigningKeyring;
  stores: Stores;
  clock: Clock;
}

/** Throws NexusError: 401 for a bad, expired or revoked token, 403 for one meant for elsewhere. */
export async function verifyNexusToken(
  deps: VerifyDeps,
  token: string,
  audience: string,
  binding?: Partial<TokenBinding>,
): Promise<VerifiedNexusToken> {
  let verified: VerifiedToken;
  try {
    verified = await deps.keyring.verify(token, audience, binding);
  } catch (err) {
    throw toNexusError(err);
  }
  const userIdNumber = Number(verified.userId);
  const sid = verified.claims[SESSION_CLAIM];
  let session: DevSession | undefined;
  if (typeof sid === "string") {
    const found = await deps.stores.devSessions.findForVerifier(sid);
    if (!found || found.session.userId !== userIdNumber) {
      throw new NexusError("unauthenticated", "token names an unknown session");
    }
    if (found.patRevoked) {
      throw new NexusError("token_revoked", "the developer token that minted this was revoked");
    }
    if (found.session.revokedAt !== null) {
      throw new NexusError("token_revoked", "this token's session was revoked");
    }
    if (!isLive(found.session, deps.clock.now())) {
      throw new NexusError("token_expired", "this token's session has expired");
    }
    session = found.session;
  }
  return { ...verified, userIdNumber, session };
}

function toNexusError(err: unknown): NexusError {
  if (!(err instanceof TokenError)) throw err;
  switch (err.code) {
    case "TOKEN_EXPIRED":
      return new NexusError("token_expired", err.message, { cause: err });
    case "TOKEN_WRONG_AUDIENCE":
    case "TOKEN_BINDING_MISMATCH":
      return new NexusError("forbidden", err.message, { cause: err });
    default:
      return new NexusError("unauthenticated", err.message, { cause: err });
  }
}
