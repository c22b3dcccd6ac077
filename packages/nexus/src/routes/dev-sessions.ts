// Dev app sessions, PAT-authed (spec L7535–7580, real-world-cli.md D4–D7): mint, refresh,
// revoke, revoke-all, list. A session is the durable identity; its `app_session_token` is a
// 600 s capability re-minted on demand (L7177–7185). Every lookup is by (user, uuid): another
// user's session is indistinguishable from a missing one.
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { countMint, devCaller } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { requireKeyring } from "../http/token-auth.js";
import { type DevSession, type DevSessionKind, isLive } from "../stores/dev-session-store.js";
import { devToolId, mintSessionToken, newSessionUuid } from "../tokens/dev-mint.js";
import { MAX_TOKEN_TTL_S } from "../tokens/keyring.js";

/** App slugs and tool ids as the registry will accept them. */
export const SLUG = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,63}$/,
    "must be 1–64 of a-z, 0-9 and '-', starting with a letter or digit",
  );
export const TOOL_ID = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
    "must be 1–128 of A-Z, a-z, 0-9, '.', '_', ':', '-'",
  );
const UUID = z.string().regex(/^aps_[0-9a-f]{32}$/, "must be an app_session_uuid (aps_…)");
/** Token lifetime asked for; more than 600 s is capped, not refused (the CLI sends 600). */
export const TTL = z.number().int().min(30).max(86_400).optional();
const PAT = z.string().max(512).optional();
const SESSION_KINDS: readonly DevSessionKind[] = ["complete", "agent"];

const MintBody = z
  .object({
    pat: PAT,
    kind: z.enum(["complete", "agent"]),
    app_slug: SLUG,
    app_id: z.unknown().optional(),
    executa_tool_id: TOOL_ID.optional(),
    submode: z.enum(["auto", "fixed"]).nullish(),
    fixed_client_id: z.string().min(1).max(128).nullish(),
    label: z.string().max(200).nullish(),
    quota_caps: z.record(z.string(), z.unknown()).nullish(),
    system_prompt: z.string().max(32_768).nullish(),
    ttl_seconds: TTL,
  })
  .refine((b) => b.submode !== "fixed" || typeof b.fixed_client_id === "string", {
    message: "submode 'fixed' needs fixed_client_id",
    path: ["fixed_client_id"],
  });
const RefreshBody = z.object({ pat: PAT, app_session_uuid: UUID, ttl_seconds: TTL });
const RevokeBody = z.object({ pat: PAT, app_session_uuid: UUID });
const RevokeAllBody = z.object({
  pat: PAT,
  app_slug: SLUG.optional(),
  app_id: z.unknown().optional(),
  executa_id: TOOL_ID.optional(),
  only_expired: z.boolean().optional(),
});
const ListQuery = z.object({
  pat: PAT,
  app_slug: SLUG.optional(),
  kind: z.enum(["complete", "agent", "storage"]).optional(),
  include_expired: z.enum(["true", "false", "1", "0"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const iso = (ms: number) => new Date(ms).toISOString();

export function sessionView(s: DevSession, now: number) {
  return {
    app_session_uuid: s.uuid,
    kind: s.kind,
    submode: s.submode,
    app_slug: s.appSlug,
    executa_tool_id: s.toolId.startsWith("app:") ? null : s.toolId,
    label: s.label,
    created_at: iso(s.createdAt),
    expires_at: iso(Math.min(s.expiresAt, s.maxLifetimeAt)),
    max_lifetime_at: iso(s.maxLifetimeAt),
    last_refreshed_at: iso(s.lastMintedAt),
    expired: !isLive(s, now),
  };
}

function noAppIdYet(appId: unknown): void {
  // Without the app registry a numeric app_id names nothing; ignoring it would widen a revoke.
  if (appId !== undefined && appId !== null) {
    throw new NexusError("validation_failed", "app_id: not supported yet; pass app_slug", {
      details: { issues: [{ path: "app_id", message: "not supported yet; pass app_slug" }] },
    });
  }
}

export function devSessionRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  const answer = async (s: DevSession, now: number, ttl: number | undefined) => {
    const t = await mintSessionToken(requireKeyring(deps), s, now, ttl ?? MAX_TOKEN_TTL_S);
    return {
      ...sessionView(s, now),
      // `app_session_token` is what the published CLI reads; `token` is the spec table's name.
      app_session_token: t.token,
      token: t.token,
      token_type: "Bearer",
      expires_in: t.expiresInS,
      token_expires_at: iso(t.expiresAt),
    };
  };

  app.post("/session/mint", async (c) => {
    const body = await readJson(c, MintBody);
    const p = await devCaller(c, deps, body.pat);
    requireKeyring(deps);
    await countMint(deps, p.user.id);
    const now = deps.clock.now();
    const submode = body.kind === "agent" ? (body.submode ?? "auto") : null;
    const session = await deps.stores.devSessions.create(
      {
        uuid: newSessionUuid(),
        userId: p.user.id,
        devTokenId: p.token.id,
        kind: body.kind,
        submode,
        appSlug: body.app_slug,
        toolId: devToolId(body.app_slug, body.executa_tool_id),
        label: body.label ?? null,
        claims: {
          submode,
          fixed_client_id: submode === "fixed" ? body.fixed_client_id : null,
          ...(body.quota_caps ? { quota_caps: body.quota_caps } : {}),
        },
        expiresAt: now + deps.config.devSessionIdleMs,
        maxLifetimeAt: now + deps.config.devSessionMaxMs,
      },
      now,
    );
    deps.logger.log("info", "dev session minted", {
      user_id: p.user.id,
      app_session_uuid: session.uuid,
      kind: session.kind,
      app_slug: session.appSlug,
    });
    return c.json(await answer(session, now, body.ttl_seconds));
  });

  app.post("/session/refresh", async (c) => {
    const body = await readJson(c, RefreshBody);
    const p = await devCaller(c, deps, body.pat);
    requireKeyring(deps);
    await countMint(deps, p.user.id);
    const now = deps.clock.now();
    const s = await deps.stores.devSessions.find(p.user.id, body.app_session_uuid);
    if (!s || s.kind === "storage") throw new NexusError("not_found", "no such session");
    const expiresAt = Math.min(now + deps.config.devSessionIdleMs, s.maxLifetimeAt);
    if (!(await deps.stores.devSessions.slide(s.id, now, expiresAt))) {
      throw new NexusError(
        "APP_SESSION_EXPIRED",
        s.revokedAt !== null
          ? "this session was revoked; mint a new one"
          : "this session has expired; mint a new one",
      );
    }
    return c.json(await answer({ ...s, expiresAt, lastMintedAt: now }, now, body.ttl_seconds));
  });

  app.post("/session/revoke", async (c) => {
    const body = await readJson(c, RevokeBody);
    const p = await devCaller(c, deps, body.pat);
    const ok = await deps.stores.devSessions.revoke(
      p.user.id,
      body.app_session_uuid,
      deps.clock.now(),
    );
    if (!ok) throw new NexusError("not_found", "no such session");
    deps.logger.log("info", "dev session revoked", {
      user_id: p.user.id,
      app_session_uuid: body.app_session_uuid,
    });
    return c.json({ revoked: true });
  });

  app.post("/session/revoke-all", async (c) => {
    const body = await readJson(c, RevokeAllBody);
    const p = await devCaller(c, deps, body.pat);
    noAppIdYet(body.app_id);
    const revoked = await deps.stores.devSessions.revokeMany(
      p.user.id,
      {
        appSlug: body.app_slug,
        toolId: body.executa_id,
        kinds: ["complete", "agent", "storage"],
        onlyExpired: body.only_expired === true,
      },
      deps.clock.now(),
    );
    deps.logger.log("info", "dev sessions revoked", { user_id: p.user.id, count: revoked });
    return c.json({ revoked });
  });

  app.get("/sessions", async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new NexusError("validation_failed", `${i?.path.join(".") ?? "query"}: ${i?.message}`);
    }
    const q = parsed.data;
    const p = await devCaller(c, deps, q.pat);
    const now = deps.clock.now();
    const sessions = await deps.stores.devSessions.list(
      p.user.id,
      {
        appSlug: q.app_slug,
        kinds: q.kind ? [q.kind] : SESSION_KINDS,
        includeExpired: q.include_expired === "true" || q.include_expired === "1",
      },
      q.limit ?? 50,
      now,
    );
    return c.json({ sessions: sessions.map((s) => sessionView(s, now)) });
  });

  return app;
}
