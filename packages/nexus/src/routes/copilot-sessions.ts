// App sessions at /api/v1/copilot/app/sessions (spec L7050–7215): create (a window, a PAT),
// `from_sampling` (a plugin's invoke, L2043), refresh, delete and list. A PAT's session is a dev
// session (`dev_sessions`, so revoking the PAT ends it); a window's or a plugin's is a
// `copilot_sessions` row. Refresh, delete and list are identity-authed (L7128: an expired
// session can still be released): a window token reaches its app's sessions, a sampling token
// its executa's, an app session token its own session, a PAT every session of its user.
import { HostApiError, checkAgentSubmode, createHostApiAcl } from "@anna-ai/app-core";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { devCaller } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { requireKeyring } from "../http/token-auth.js";
import {
  type WindowCaller,
  appSessionCaller,
  samplingCaller,
  windowCaller,
} from "../copilot/copilot-auth.js";
import {
  type CopilotSessionRow,
  type CopilotSessionStore,
  isLiveSession,
} from "../copilot/copilot-session-store.js";
import { bearerAudience } from "../copilot/service-contexts.js";
import { mintCopilotSessionToken } from "../copilot/session-tokens.js";
import { sqlAppCatalog } from "../runtime/sql-app-catalog.js";
import { type DevSession, isLive } from "../stores/dev-session-store.js";
import { devToolId, mintSessionToken, newSessionUuid } from "../tokens/dev-mint.js";
import { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "../tokens/audiences.js";
import { SLUG } from "./dev-sessions.js";
import { requireCopilot } from "../copilot/copilot-services.js";

/** Session lifetimes of `kind: complete` (L7106–7110); agent ones are the dev sessions'. */
export const COMPLETE_SESSION_IDLE_MS = 15 * 60_000;
export const COMPLETE_SESSION_MAX_MS = 3_600_000;

const UUID = z.string().regex(/^aps_[0-9a-f]{32}$/, "must be an app_session_uuid (aps_…)");

const SessionBody = z.object({
  pat: z.string().max(512).optional(),
  kind: z.enum(["agent", "complete"]).default("agent"),
  submode: z.enum(["auto", "fixed"]).nullish(),
  agent_submode: z.enum(["auto", "fixed"]).nullish(),
  fixed_client_id: z.string().min(1).max(128).nullish(),
  label: z.string().max(200).nullish(),
  system_prompt: z.string().max(32_000).nullish(),
  systemPrompt: z.string().max(32_000).nullish(),
  quota_caps: z.record(z.string(), z.unknown()).nullish(),
  /** PAT callers name the app; a window's app is its token's. */
  app_slug: SLUG.optional(),
});
type SessionBody = z.infer<typeof SessionBody>;

const ListQuery = z.object({
  pat: z.string().max(512).optional(),
  app_slug: SLUG.optional(),
  include_expired: z.enum(["true", "false", "1", "0"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/** What a create asks for, checked once for every kind of caller. */
interface SessionRequest {
  kind: "agent" | "complete";
  submode: "auto" | "fixed" | null;
  fixedClientId: string | null;
  label: string | null;
  systemPrompt: string | null;
  quotaCaps: Record<string, unknown> | undefined;
}

function sessionRequest(body: SessionBody): SessionRequest {
  const submode = body.kind === "agent" ? (body.submode ?? body.agent_submode ?? "auto") : null;
  if (submode === "fixed" && !body.fixed_client_id) {
    throw new NexusError("validation_failed", "fixed_client_id: required for submode 'fixed'");
  }
  return {
    kind: body.kind,
    submode,
    fixedClientId: submode === "fixed" ? (body.fixed_client_id ?? null) : null,
    label: body.label ?? null,
    systemPrompt: body.system_prompt ?? body.systemPrompt ?? null,
    quotaCaps: body.quota_caps ?? undefined,
  };
}

/** One session as every endpoint answers it, whichever table holds it. */
interface SessionRecord {
  table: "dev" | "copilot";
  uuid: string;
  kind: string;
  submode: string | null;
  appSlug: string;
  toolId: string;
  createdAt: number;
  expiresAt: number;
  maxLifetimeAt: number;
  revokedAt: number | null;
  live: boolean;
  dev?: DevSession;
  copilot?: CopilotSessionRow;
}

/** The fields both tables share, as the endpoints answer them. */
function lifecycle(s: DevSession | CopilotSessionRow) {
  const { uuid, kind, submode, appSlug, toolId, createdAt, expiresAt, maxLifetimeAt, revokedAt } =
    s;
  return { uuid, kind, submode, appSlug, toolId, createdAt, expiresAt, maxLifetimeAt, revokedAt };
}

const fromDev = (s: DevSession, now: number): SessionRecord => ({
  table: "dev",
  ...lifecycle(s),
  live: isLive(s, now),
  dev: s,
});

const fromCopilot = (s: CopilotSessionRow, now: number): SessionRecord => ({
  table: "copilot",
  ...lifecycle(s),
  live: isLiveSession(s, now),
  copilot: s,
});

const iso = (ms: number) => new Date(ms).toISOString();

function sessionView(s: SessionRecord, now: number, idleMs: number) {
  return {
    app_session_uuid: s.uuid,
    thread_id: s.uuid,
    kind: s.kind,
    submode: s.submode,
    agent_submode: s.submode,
    app_slug: s.appSlug,
    granted_tools: [],
    created_at: iso(s.createdAt),
    expires_at: iso(Math.min(s.expiresAt, s.maxLifetimeAt)),
    max_lifetime_at: iso(s.maxLifetimeAt),
    idle_ttl_seconds: Math.round(idleMs / 1000),
    expired: !s.live,
  };
}

/** Who refreshes, deletes or lists, and which sessions that reaches. */
interface SessionOwner {
  userId: number;
  /** Only sessions of this app (a window's). */
  appSlug?: string;
  /** Only sessions of this executa (a plugin's sampling token). */
  toolId?: string;
  /** Only this session (its own token). */
  uuid?: string;
}

async function sessionOwner(c: Ctx, deps: AppDeps, pat: string | undefined): Promise<SessionOwner> {
  const window = await windowCaller(c, deps);
  if (window) return { userId: window.userId, appSlug: `app:${window.appId}` };
  const aud = bearerAudience(c.req.header("authorization"));
  if (aud === APP_SESSION_AUDIENCE) {
    const caller = await appSessionCaller(c, deps, requireCopilot(deps).sessions);
    return { userId: caller.session.userId, uuid: caller.session.uuid };
  }
  if (aud === FAMILY_AUDIENCES.sampling) {
    const t = await samplingCaller(c, deps);
    return { userId: t.userIdNumber, toolId: t.toolId };
  }
  const p = await devCaller(c, deps, pat);
  return { userId: p.user.id };
}

function reaches(owner: SessionOwner, s: SessionRecord): boolean {
  return (
    (owner.appSlug === undefined || owner.appSlug === s.appSlug) &&
    (owner.toolId === undefined || owner.toolId === s.toolId) &&
    (owner.uuid === undefined || owner.uuid === s.uuid)
  );
}

/** The manifest gate for a window (L6915–6943): `llm: ["complete"]`, the agent submodes. */
async function checkWindowGrant(deps: AppDeps, window: WindowCaller, req: SessionRequest) {
  const app = await sqlAppCatalog(requireCopilot(deps).db).apps.resolve({
    userId: String(window.userId),
    appId: window.appId,
    versionId: window.versionId,
  });
  if (!app) throw new NexusError("forbidden", "this window's app is not installed for you");
  const acl = createHostApiAcl(app.manifest.ui?.host_api);
  try {
    if (req.kind === "complete") {
      const d = acl.check("llm", "complete");
      if (!d.allowed) throw new HostApiError("permission_denied", d.reason);
    } else {
      checkAgentSubmode(acl.hostApi.agent, req.submode ?? "auto", req.fixedClientId ?? undefined);
    }
  } catch (err) {
    if (!(err instanceof HostApiError)) throw err;
    throw new NexusError(
      err.code === "invalid_arg" ? "validation_failed" : "permission_denied",
      err.message,
    );
  }
}

export function copilotSessionRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  const lifetimes = (kind: string) =>
    kind === "agent"
      ? { idleMs: deps.config.devSessionIdleMs, maxMs: deps.config.devSessionMaxMs }
      : { idleMs: COMPLETE_SESSION_IDLE_MS, maxMs: COMPLETE_SESSION_MAX_MS };

  const answer = (
    s: SessionRecord,
    t: { token: string; expiresInS: number; expiresAt: number },
    now: number,
  ) => ({
    ...sessionView(s, now, lifetimes(s.kind).idleMs),
    app_session_token: t.token,
    token: t.token,
    token_type: "Bearer",
    expires_in: t.expiresInS,
    token_expires_at: iso(t.expiresAt),
  });

  /** A window's or a plugin's session: a `copilot_sessions` row and its `cps` token. */
  const createCopilotSession = async (
    req: SessionRequest,
    owner: Pick<CopilotSessionRow, "userId" | "origin" | "appSlug" | "toolId" | "mintedBy">,
  ) => {
    const copilot = requireCopilot(deps);
    const now = deps.clock.now();
    const { idleMs, maxMs } = lifetimes(req.kind);
    const row = await copilot.sessions.create({
      uuid: newSessionUuid(),
      ...owner,
      kind: req.kind,
      submode: req.submode,
      label: req.label,
      claims: {
        fixed_client_id: req.fixedClientId,
        system_prompt: req.systemPrompt,
        ...(req.quotaCaps ? { quota_caps: req.quotaCaps } : {}),
      },
      createdAt: now,
      expiresAt: now + idleMs,
      maxLifetimeAt: now + maxMs,
    });
    deps.logger.log("info", "copilot session created", {
      user_id: row.userId,
      app_session_uuid: row.uuid,
      origin: owner.origin,
      kind: row.kind,
    });
    const t = await mintCopilotSessionToken(requireKeyring(deps), row, now);
    return answer(fromCopilot(row, now), t, now);
  };

  app.post("/", async (c) => {
    const body = await readJson(c, SessionBody);
    const req = sessionRequest(body);
    const window = await windowCaller(c, deps);
    if (window) {
      await checkWindowGrant(deps, window, req);
      const appSlug = `app:${window.appId}`;
      return c.json(
        await createCopilotSession(req, {
          userId: window.userId,
          origin: "window",
          appSlug,
          toolId: appSlug,
          mintedBy: window.windowUuid,
        }),
      );
    }
    const p = await devCaller(c, deps, body.pat);
    if (body.app_slug === undefined) {
      throw new NexusError(
        "validation_failed",
        "app_slug: required with a developer token (the app the session is for)",
      );
    }
    const now = deps.clock.now();
    const { idleMs, maxMs } = lifetimes(req.kind);
    const session = await deps.stores.devSessions.create(
      {
        uuid: newSessionUuid(),
        userId: p.user.id,
        devTokenId: p.token.id,
        kind: req.kind,
        submode: req.submode,
        appSlug: body.app_slug,
        toolId: devToolId(body.app_slug, undefined),
        label: req.label,
        claims: {
          submode: req.submode,
          fixed_client_id: req.fixedClientId,
          ...(req.systemPrompt ? { system_prompt: req.systemPrompt } : {}),
          ...(req.quotaCaps ? { quota_caps: req.quotaCaps } : {}),
        },
        expiresAt: now + idleMs,
        maxLifetimeAt: now + maxMs,
      },
      now,
    );
    const t = await mintSessionToken(requireKeyring(deps), session, now);
    return c.json(answer(fromDev(session, now), t, now));
  });

  app.post("/from_sampling", async (c) => {
    const req = sessionRequest(await readJson(c, SessionBody));
    const t = await samplingCaller(c, deps);
    const appSlug = typeof t.claims["app_slug"] === "string" ? t.claims["app_slug"] : "";
    return c.json(
      await createCopilotSession(req, {
        userId: t.userIdNumber,
        origin: "sampling",
        appSlug,
        toolId: t.toolId,
        mintedBy: t.invokeId,
      }),
    );
  });

  /** The owner's session by uuid; another's, or one out of reach, is a missing one. */
  const findSession = async (owner: SessionOwner, uuid: string): Promise<SessionRecord> => {
    const now = deps.clock.now();
    const dev = await deps.stores.devSessions.find(owner.userId, uuid);
    const copilot: CopilotSessionStore = requireCopilot(deps).sessions;
    const found =
      dev && dev.kind !== "storage"
        ? fromDev(dev, now)
        : await copilot.find(owner.userId, uuid).then((r) => (r ? fromCopilot(r, now) : undefined));
    if (!found || !reaches(owner, found))
      throw new NexusError(
        "not_found",
        `no session ${uuid} is yours to reach with this credential`,
      );
    return found;
  };

  app.post("/:uuid/refresh", async (c) => {
    const uuid = UUID.parse(c.req.param("uuid"));
    const body = await readJson(c, z.object({ pat: z.string().max(512).optional() }));
    const owner = await sessionOwner(c, deps, body.pat);
    const s = await findSession(owner, uuid);
    if (s.revokedAt !== null)
      throw new NexusError("APP_SESSION_REVOKED", "this session was revoked; create a new one");
    const now = deps.clock.now();
    const expiresAt = Math.min(now + lifetimes(s.kind).idleMs, s.maxLifetimeAt);
    const slid =
      s.dev !== undefined
        ? await deps.stores.devSessions.slide(s.dev.id, now, expiresAt)
        : await requireCopilot(deps).sessions.slide(
            owner.userId,
            uuid,
            now,
            lifetimes(s.kind).idleMs,
          );
    if (!slid)
      throw new NexusError(
        "APP_SESSION_EXPIRED",
        "this session crossed its idle or hard deadline; create a new one",
      );
    const keyring = requireKeyring(deps);
    const t =
      s.dev !== undefined
        ? await mintSessionToken(keyring, { ...s.dev, expiresAt, lastMintedAt: now }, now)
        : await mintCopilotSessionToken(keyring, { ...s.copilot!, expiresAt }, now);
    return c.json(answer({ ...s, expiresAt, live: true }, t, now));
  });

  app.delete("/:uuid", async (c) => {
    const uuid = UUID.parse(c.req.param("uuid"));
    const owner = await sessionOwner(c, deps, c.req.query("pat"));
    const s = await findSession(owner, uuid);
    const now = deps.clock.now();
    if (s.table === "dev") await deps.stores.devSessions.revoke(owner.userId, uuid, now);
    else await requireCopilot(deps).sessions.revoke(owner.userId, uuid, now);
    deps.logger.log("info", "copilot session revoked", {
      user_id: owner.userId,
      app_session_uuid: uuid,
    });
    return c.json({ revoked: true, app_session_uuid: uuid });
  });

  app.get("/", async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new NexusError("validation_failed", `${i?.path.join(".") ?? "query"}: ${i?.message}`);
    }
    const q = parsed.data;
    const owner = await sessionOwner(c, deps, q.pat);
    const appSlug = owner.appSlug ?? q.app_slug;
    if (appSlug === undefined) {
      throw new NexusError(
        "validation_failed",
        "app_slug: required with a developer token (whose sessions to list)",
      );
    }
    const now = deps.clock.now();
    const includeExpired = q.include_expired === "true" || q.include_expired === "1";
    const limit = q.limit ?? 50;
    const [dev, copilot] = await Promise.all([
      owner.appSlug === undefined
        ? deps.stores.devSessions.list(
            owner.userId,
            { appSlug, kinds: ["agent", "complete"], includeExpired },
            limit,
            now,
          )
        : Promise.resolve([]),
      requireCopilot(deps).sessions.list(owner.userId, appSlug, { includeExpired, limit, now }),
    ]);
    const sessions = [
      ...dev.map((s) => fromDev(s, now)),
      ...copilot.map((s) => fromCopilot(s, now)),
    ]
      .filter((s) => reaches(owner, s))
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit);
    return c.json({ sessions: sessions.map((s) => sessionView(s, now, lifetimes(s.kind).idleMs)) });
  });

  return app;
}
