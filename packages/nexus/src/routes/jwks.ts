// `GET /.well-known/jwks.json`: the public halves of every key that still verifies (the signing
// one and those superseded less than a token lifetime ago). Never a private key: the keyring's
// JWKs are built from the stored public JWK only.
import { Hono } from "hono";
import type { AppDeps, Env } from "../http/context.js";
import { requireKeyring } from "../http/token-auth.js";

/**
 * Verifiers may cache this long. A rotation signs with the new key at once, so a verifier that
 * meets an unknown `kid` refetches (as jose's createRemoteJWKSet does) instead of waiting.
 */
export const JWKS_MAX_AGE_S = 300;

export function jwksRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/.well-known/jwks.json", async (c) => {
    const { keys } = await requireKeyring(deps).jwks();
    c.header("Cache-Control", `public, max-age=${JWKS_MAX_AGE_S}`);
    return c.json({
      keys: keys.map(({ kty, crv, x, kid, alg, use }) => ({ kty, crv, x, kid, alg, use })),
    });
  });
  return app;
}
