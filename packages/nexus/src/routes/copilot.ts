// The LLM gateway's HTTP surface (spec L6900–7300, L2043, L9348): app sessions for windows, PATs
// and plugins; one-shot completions; agent runs streamed as server-sent events, and their
// cancel; embeddings. Host upload lives in copilot-upload.ts. Every model call is accounted in
// `llm_usage` per (user, app, purpose, model) and refused with `quota_exceeded` (429) over quota.
import { LLM_MAX_TOKENS_PER_CALL, LlmCompleteArgsSchema } from "@anna-ai/app-schema/host-api";
import { EmbeddingsCreateParamsSchema, normalizeSamplingParams } from "@anna-ai/app-schema";
import type { CallAccount } from "@anna-ai/agent";
import type { Grant, ServiceContext } from "@anna-ai/executa-host";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { devCaller } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { requireKeyring } from "../http/token-auth.js";
import { runAgentTurn } from "../copilot/agent-runs.js";
import {
  type AppSessionCaller,
  COPILOT_SESSION_CLAIM,
  appSessionCaller,
  samplingCaller,
  windowCaller,
} from "../copilot/copilot-auth.js";
import type { CopilotServices } from "../copilot/copilot-services.js";
import { callHostService } from "../copilot/service-http-error.js";
import { devToolId, mintSessionToken, newSessionUuid } from "../tokens/dev-mint.js";
import { APP_SESSION_AUDIENCE, APP_SESSION_TOKEN_TYPE } from "../tokens/audiences.js";
import { MAX_TOKEN_TTL_S } from "../tokens/keyring.js";
import { SLUG } from "./dev-sessions.js";

/** Session lifetimes of `kind: complete` (L7106–7110); agent ones are the dev sessions'. */
export const COMPLETE_SESSION_IDLE_MS = 15 * 60_000;
export const COMPLETE_SESSION_MAX_MS = 3_600_000;
/** Characters of one agent run's `content`. */
export const AGENT_CONTENT_MAX_CHARS = 32_000;

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

const AgentBody = z.object({
  content: z.string().trim().min(1, "content required").max(AGENT_CONTENT_MAX_CHARS),
  app_session_uuid: z.string().optional(),
});
const CancelBody = z.object({
  run_id: z.string().min(1).max(64),
  app_session_uuid: z.string().optional(),
});
const EmbedBody = EmbeddingsCreateParamsSchema.extend({
  user_id: z.union([z.string(), z.number()]).nullish(),
  executa_tool_id: z.string().nullish(),
  tool_invoke_id: z.string().nullish(),
});

const iso = (ms: number) => new Date(ms).toISOString();

export function requireCopilot(deps: AppDeps): CopilotServices {
  if (!deps.copilot)
    throw new NexusError("unavailable", "the LLM gateway is not configured on this server");
  return deps.copilot;
}

/** What a host service learns about a copilot call (the app session stands in for the invoke). */
export function serviceContext<G extends Grant>(
  caller: AppSessionCaller,
  signal: AbortSignal,
  deadlineMs: number,
  grant: G,
): ServiceContext<G> {
  const { session } = caller;
  return {
    userId: String(session.userId),
    toolId: session.toolId,
    invokeId: session.uuid,
    pluginName: session.appSlug,
    tool: session.kind,
    deadlineMs,
    signal,
    grant,
    ...(session.appSlug !== "" ? { app: { appId: session.appSlug, appScopeGranted: false } } : {}),
  };
}

async function refuseOverQuota(copilot: CopilotServices, account: CallAccount): Promise<void> {
  const decision = await copilot.usage.check(account);
  if (!decision.allowed) throw new NexusError("quota_exceeded", decision.reason);
}

export function copilotRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  const lifetimes = (kind: "agent" | "complete") =>
    kind === "agent"
      ? { idleMs: deps.config.devSessionIdleMs, maxMs: deps.config.devSessionMaxMs }
      : { idleMs: COMPLETE_SESSION_IDLE_MS, maxMs: COMPLETE_SESSION_MAX_MS };

  /** A window's or a plugin's session: a `copilot_sessions` row and its `cps` token. */
  const createCopilotSession = async (
    c: Ctx,
    body: SessionBody,
    owner: {
      userId: number;
      origin: "window" | "sampling";
      appSlug: string;
      toolId: string;
      mintedBy: string;
    },
  ) => {
    const copilot = requireCopilot(deps);
    const keyring = requireKeyring(deps);
    const now = deps.clock.now();
    const kind = body.kind;
    const submode = kind === "agent" ? (body.submode ?? body.agent_submode ?? "auto") : null;
    if (submode === "fixed" && !body.fixed_client_id) {
      throw new NexusError("validation_failed", "fixed_client_id: required for submode 'fixed'");
    }
    const { idleMs, maxMs } = lifetimes(kind);
    const systemPrompt = body.system_prompt ?? body.systemPrompt ?? null;
    const row = await copilot.sessions.create({
      uuid: newSessionUuid(),
      userId: owner.userId,
      origin: owner.origin,
      kind,
      submode,
      appSlug: owner.appSlug,
      toolId: owner.toolId,
      mintedBy: owner.mintedBy,
      label: body.label ?? null,
      claims: {
        fixed_client_id: submode === "fixed" ? body.fixed_client_id : null,
        system_prompt: systemPrompt,
        ...(body.quota_caps ? { quota_caps: body.quota_caps } : {}),
      },
      createdAt: now,
      expiresAt: now + idleMs,
      maxLifetimeAt: now + maxMs,
    });
    const ttl = Math.max(
      1,
      Math.min(MAX_TOKEN_TTL_S, Math.floor((row.maxLifetimeAt - now) / 1000)),
    );
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
        kind,
        submode,
        app_slug: row.appSlug,
      },
    });
    deps.logger.log("info", "copilot session created", {
      user_id: row.userId,
      app_session_uuid: row.uuid,
      origin: owner.origin,
      kind,
    });
    return c.json(sessionAnswer({ ...row, token, ttl, now, idleMs }));
  };

  app.post("/app/sessions", async (c) => {
    const body = await readJson(c, SessionBody);
    const window = await windowCaller(c, deps);
    if (window) {
      const app = `app:${window.appId}`;
      return createCopilotSession(c, body, {
        userId: window.userId,
        origin: "window",
        appSlug: app,
        toolId: app,
        mintedBy: window.windowUuid,
      });
    }
    // A PAT: the session is a dev session, so revoking the PAT ends it (as …/dev/session/mint).
    const p = await devCaller(c, deps, body.pat);
    if (body.app_slug === undefined) {
      throw new NexusError(
        "validation_failed",
        "app_slug: required with a developer token (the app the session is for)",
      );
    }
    const now = deps.clock.now();
    const kind = body.kind;
    const submode = kind === "agent" ? (body.submode ?? body.agent_submode ?? "auto") : null;
    if (submode === "fixed" && !body.fixed_client_id) {
      throw new NexusError("validation_failed", "fixed_client_id: required for submode 'fixed'");
    }
    const { idleMs, maxMs } = lifetimes(kind);
    const systemPrompt = body.system_prompt ?? body.systemPrompt ?? null;
    const session = await deps.stores.devSessions.create(
      {
        uuid: newSessionUuid(),
        userId: p.user.id,
        devTokenId: p.token.id,
        kind,
        submode,
        appSlug: body.app_slug,
        toolId: devToolId(body.app_slug, undefined),
        label: body.label ?? null,
        claims: {
          submode,
          fixed_client_id: submode === "fixed" ? body.fixed_client_id : null,
          ...(systemPrompt ? { system_prompt: systemPrompt } : {}),
          ...(body.quota_caps ? { quota_caps: body.quota_caps } : {}),
        },
        expiresAt: now + idleMs,
        maxLifetimeAt: now + maxMs,
      },
      now,
    );
    const t = await mintSessionToken(requireKeyring(deps), session, now);
    return c.json(
      sessionAnswer({
        uuid: session.uuid,
        kind,
        submode,
        appSlug: session.appSlug,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        maxLifetimeAt: session.maxLifetimeAt,
        token: t.token,
        ttl: t.expiresInS,
        now,
        idleMs,
      }),
    );
  });

  app.post("/app/sessions/from_sampling", async (c) => {
    const body = await readJson(c, SessionBody);
    const t = await samplingCaller(c, deps);
    const appSlug = typeof t.claims["app_slug"] === "string" ? t.claims["app_slug"] : "";
    return createCopilotSession(c, body, {
      userId: t.userIdNumber,
      origin: "sampling",
      appSlug,
      toolId: t.toolId,
      mintedBy: t.invokeId,
    });
  });

  app.post("/app/complete", async (c) => {
    const copilot = requireCopilot(deps);
    const caller = await appSessionCaller(c, deps, copilot.sessions);
    const args = await readJson(c, LlmCompleteArgsSchema());
    await refuseOverQuota(copilot, caller.account);
    // R119: clamped to the per-call cap, silently.
    const requested = args.maxTokens ?? args.max_tokens ?? LLM_MAX_TOKENS_PER_CALL;
    const request = normalizeSamplingParams({
      ...args,
      maxTokens: Math.min(requested, LLM_MAX_TOKENS_PER_CALL),
    });
    const result = await callHostService(() =>
      copilot.sampling.createMessage(
        request,
        serviceContext(caller, c.req.raw.signal, Number.POSITIVE_INFINITY, {}),
      ),
    );
    return c.json(result);
  });

  app.post("/app/agent", async (c) => {
    const copilot = requireCopilot(deps);
    const caller = await appSessionCaller(c, deps, copilot.sessions);
    const body = await readJson(c, AgentBody);
    const { session } = caller;
    if (body.app_session_uuid !== undefined && body.app_session_uuid !== session.uuid) {
      throw new NexusError("forbidden", "app_session_uuid names another session than the token's");
    }
    if (session.kind !== "agent") {
      throw new NexusError(
        "permission_denied",
        "this is a 'complete' session; create one with kind 'agent' to run the agent",
      );
    }
    await refuseOverQuota(copilot, caller.account);
    const now = deps.clock.now();
    // Every run slides the idle window (L7102).
    if (session.table === "copilot") {
      await copilot.sessions.slide(session.userId, session.uuid, now, lifetimes("agent").idleMs);
    } else {
      const dev = await deps.stores.devSessions.find(session.userId, session.uuid);
      if (dev)
        await deps.stores.devSessions.slide(
          dev.id,
          now,
          Math.min(now + deps.config.devSessionIdleMs, dev.maxLifetimeAt),
        );
    }
    const { runId, controller } = copilot.runs.start(session.userId, session.uuid);
    c.header("x-anna-run-id", runId);
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort(new Error("the client went away")));
      let seq = 0;
      try {
        await runAgentTurn({
          db: copilot.db,
          gateway: copilot.gateway,
          session,
          account: caller.account,
          runId,
          content: body.content,
          signal: controller.signal,
          clock: deps.clock.now,
          emit: async (frame) => {
            const tagged = { ...frame, seq, stream_id: runId };
            await stream.writeSSE({
              id: String(seq),
              event: frame.event,
              data: JSON.stringify(tagged),
            });
            seq += 1;
          },
        });
      } finally {
        copilot.runs.finish(runId);
      }
    });
  });

  app.post("/app/agent/cancel", async (c) => {
    const copilot = requireCopilot(deps);
    const caller = await appSessionCaller(c, deps, copilot.sessions);
    const body = await readJson(c, CancelBody);
    if (!copilot.runs.cancel(caller.session.userId, body.run_id)) {
      throw new NexusError(
        "not_found",
        `no run ${body.run_id} is in flight for you (it ended, or never started)`,
      );
    }
    return c.json({ cancelled: true, run_id: body.run_id });
  });

  app.post("/embeddings", async (c) => {
    const copilot = requireCopilot(deps);
    const body = await readJson(c, EmbedBody);
    const caller = await embeddingsCaller(c, deps, copilot);
    // L9348: the body's identity fields, when sent, must be the token's.
    const mismatch =
      (body.user_id != null && String(body.user_id) !== caller.userId) ||
      (body.executa_tool_id != null && body.executa_tool_id !== caller.toolId) ||
      (body.tool_invoke_id != null && body.tool_invoke_id !== caller.invokeId);
    if (mismatch) {
      throw new NexusError(
        "forbidden",
        "user_id, executa_tool_id and tool_invoke_id must be the ones the token is bound to",
      );
    }
    await refuseOverQuota(copilot, {
      userId: caller.userId,
      ...(caller.app ? { appId: caller.app.appId } : {}),
    });
    const input = typeof body.input === "string" ? [body.input] : body.input;
    const result = await callHostService(() =>
      copilot.embeddings.create({ ...body, input }, caller),
    );
    return c.json(result);
  });

  return app;
}

/** The identity an embeddings call is made for: a sampling token's, else an app session's. */
async function embeddingsCaller(
  c: Ctx,
  deps: AppDeps,
  copilot: CopilotServices,
): Promise<ServiceContext<Record<string, never>>> {
  const aud = bearerAudience(c.req.header("authorization"));
  const signal = c.req.raw.signal;
  if (aud === APP_SESSION_AUDIENCE) {
    return serviceContext(
      await appSessionCaller(c, deps, copilot.sessions),
      signal,
      Number.POSITIVE_INFINITY,
      {},
    );
  }
  const t = await samplingCaller(c, deps);
  const appSlug = typeof t.claims["app_slug"] === "string" ? t.claims["app_slug"] : undefined;
  return {
    userId: t.userId,
    toolId: t.toolId,
    invokeId: t.invokeId,
    pluginName: t.toolId,
    tool: "embeddings",
    deadlineMs: Number.POSITIVE_INFINITY,
    signal,
    grant: {},
    ...(appSlug ? { app: { appId: appSlug, appScopeGranted: false } } : {}),
  };
}

/** The unverified `aud` of a Bearer JWT, only to pick which verifier to run. */
export function bearerAudience(header: string | undefined): string | undefined {
  const token = /^bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  const payload = token?.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const aud = (
      JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { aud?: unknown }
    ).aud;
    return typeof aud === "string"
      ? aud
      : Array.isArray(aud) && typeof aud[0] === "string"
        ? aud[0]
        : undefined;
  } catch {
    return undefined;
  }
}

function sessionAnswer(s: {
  uuid: string;
  kind: string;
  submode: string | null;
  appSlug: string;
  createdAt: number;
  expiresAt: number;
  maxLifetimeAt: number;
  token: string;
  ttl: number;
  now: number;
  idleMs: number;
}) {
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
    idle_ttl_seconds: Math.round(s.idleMs / 1000),
    app_session_token: s.token,
    token: s.token,
    token_type: "Bearer",
    expires_in: s.ttl,
    token_expires_at: iso(s.now + s.ttl * 1000),
  };
}
