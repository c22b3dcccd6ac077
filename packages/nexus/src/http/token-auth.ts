// Authorization by a per-invoke token (`Authorization: Bearer <jwt>`), for the routes that serve
// tool and app calls (storage, files, sampling…): `const t = await requireToken(c, deps,
// FAMILY_AUDIENCES.storage)` gives the user the token is bound to.
import { NexusError } from "../core/errors.js";
import { type VerifiedNexusToken, verifyNexusToken } from "../tokens/verify-token.js";
import type { AppDeps, Ctx } from "./context.js";
import type { TokenBinding } from "@anna-ai/executa-host";

export function bearerOf(c: Ctx): string | undefined {
  const auth = c.req.header("authorization");
  if (auth === undefined) return undefined;
  const m = /^bearer\s+(\S+)$/i.exec(auth);
  if (!m) throw new NexusError("unauthenticated", "malformed Authorization header");
  return m[1];
}

export function requireKeyring(deps: AppDeps): NonNullable<AppDeps["keyring"]> {
  if (!deps.keyring) {
    throw new NexusError("unavailable", "token signing is not configured on this server");
  }
  return deps.keyring;
}

export async function requireToken(
  c: Ctx,
  deps: AppDeps,
  audience: string,
  binding?: Partial<TokenBinding>,
): Promise<VerifiedNexusToken> {
  const token = bearerOf(c);
  if (!token) throw new NexusError("unauthenticated", "send the token as Authorization: Bearer");
  return verifyNexusToken(
    { keyring: requireKeyring(deps), stores: deps.stores, clock: deps.clock },
    token,
    audience,
    binding,
  );
}
