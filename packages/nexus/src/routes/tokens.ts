// Developer PATs: list, scopes, revoke (published CLI: GET …/dev/tokens, POST …/tokens/{id}/revoke).
import { Hono } from "hono";
import { hashSecret, randomSecret } from "../auth/secrets.js";
import { PAT_PREFIX, SCOPES, type Scope } from "../auth/scopes.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { tokenView } from "../http/views.js";
import type { DevToken, Stores } from "../stores/types.js";

/** Mints a PAT; the secret is returned once and only its hash is kept. */
export async function mintPat(
  stores: Stores,
  opts: { userId: number; scopes: Scope[]; label: string | null; now: number; ttlMs: number },
): Promise<{ pat: string; token: DevToken }> {
  const pat = randomSecret(32, PAT_PREFIX);
  const token = await stores.tokens.create(
    {
      userId: opts.userId,
      tokenHash: hashSecret(pat),
      jti: randomSecret(12),
      label: opts.label,
      scopes: opts.scopes,
      expiresAt: opts.now + opts.ttlMs,
    },
    opts.now,
  );
  return { pat, token };
}

export function tokenRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/tokens", async (c) => {
    const p = await requireUser(c, deps);
    requireScopes(p, ["aps:dev"]);
    const includeRevoked = c.req.query("include_revoked") === "true";
    const tokens = await deps.stores.tokens.list(p.user.id, includeRevoked);
    return c.json({ tokens: tokens.map(tokenView) });
  });

  app.get("/tokens/scopes", async (c) => {
    await requireUser(c, deps);
    return c.json({ scopes: SCOPES.map((s) => ({ name: s.name, description: s.description })) });
  });

  app.post("/tokens/:id/revoke", async (c) => {
    const p = await requireUser(c, deps);
    requireScopes(p, ["aps:dev"]);
    const raw = c.req.param("id");
    if (!/^[1-9]\d{0,15}$/.test(raw))
      throw new NexusError("bad_request", "token id must be a positive integer");
    const ok = await deps.stores.tokens.revoke(p.user.id, Number(raw), deps.clock.now());
    // Another user's token is indistinguishable from a missing one.
    if (!ok) throw new NexusError("not_found", "no such token");
    deps.logger.log("info", "token revoked", { user_id: p.user.id, token_id: Number(raw) });
    return c.body(null, 204);
  });

  return app;
}
