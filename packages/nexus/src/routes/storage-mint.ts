// `POST /api/v1/anna-apps/dev/storage/mint` (real-world-cli.md D8): a 600 s `storage_token`
// (aud `aps-storage`) for `executa dev --storage real` and `anna-app dev --storage aps`. Each mint
// is recorded as a dev session of kind `storage`, so revoke-all and PAT revocation end it.
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { countMint, devCaller } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { requireKeyring } from "../http/token-auth.js";
import { devToolId, mintSessionToken, newSessionUuid } from "../tokens/dev-mint.js";
import { MAX_TOKEN_TTL_S } from "../tokens/keyring.js";
import { SLUG, TOOL_ID, TTL } from "./dev-sessions.js";

/** Storage + files calls one token allows; the host cap (L2366). */
export const STORAGE_MAX_CALLS = 200;
const SCOPE = z.enum(["user", "app", "tool"]);

const Body = z.object({
  pat: z.string().max(512).optional(),
  app_slug: SLUG,
  executa_tool_id: TOOL_ID.optional(),
  allowed_scopes: z.array(SCOPE).min(1).max(3).optional(),
  ttl_seconds: TTL,
  max_calls: z.number().int().min(1).max(STORAGE_MAX_CALLS).optional(),
  // Not sent by the published CLI: a tighter per-user byte quota for this token's calls (a
  // grant's `quotaBytes`, which only ever lowers the server's quota), so a test or a cautious
  // developer can try a plugin against a small quota.
  quota_bytes: z.number().int().min(1).optional(),
});

export function storageMintRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.post("/storage/mint", async (c) => {
    const body = await readJson(c, Body);
    const p = await devCaller(c, deps, body.pat);
    const keyring = requireKeyring(deps);
    const tool = body.executa_tool_id;
    // Defaults: a plugin's grant (`user`, `tool`; H14) or, for an app, `user` and `app`.
    const scopes = [...new Set(body.allowed_scopes ?? (tool ? ["user", "tool"] : ["user", "app"]))];
    if (scopes.includes("tool") && !tool) {
      throw new NexusError("validation_failed", "allowed_scopes: 'tool' needs executa_tool_id", {
        details: { issues: [{ path: "allowed_scopes", message: "'tool' needs executa_tool_id" }] },
      });
    }
    await countMint(deps, p.user.id);
    const now = deps.clock.now();
    const ttl = Math.min(body.ttl_seconds ?? MAX_TOKEN_TTL_S, MAX_TOKEN_TTL_S);
    const maxCalls = body.max_calls ?? STORAGE_MAX_CALLS;
    const session = await deps.stores.devSessions.create(
      {
        uuid: newSessionUuid(),
        userId: p.user.id,
        devTokenId: p.token.id,
        kind: "storage",
        submode: null,
        appSlug: body.app_slug,
        toolId: devToolId(body.app_slug, tool),
        label: null,
        claims: {
          allowed_scopes: scopes,
          max_calls: maxCalls,
          ...(body.quota_bytes === undefined ? {} : { quota_bytes: body.quota_bytes }),
        },
        expiresAt: now + ttl * 1000,
        maxLifetimeAt: now + ttl * 1000,
      },
      now,
    );
    const t = await mintSessionToken(keyring, session, now, ttl);
    deps.logger.log("info", "storage token minted", {
      user_id: p.user.id,
      dev_session_uuid: session.uuid,
      app_slug: body.app_slug,
    });
    return c.json({
      storage_token: t.token,
      token_type: "Bearer",
      expires_in: t.expiresInS,
      expires_at: new Date(t.expiresAt).toISOString(),
      allowed_scopes: scopes,
      max_calls: maxCalls,
      app_slug: body.app_slug,
      executa_tool_id: tool ?? null,
      dev_session_uuid: session.uuid,
    });
  });

  return app;
}
