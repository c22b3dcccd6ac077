// The LLM gateway's HTTP surface (spec L6900–7300, L9348): one-shot completions, agent runs
// streamed as server-sent events and their cancel, embeddings; sessions are copilot-sessions.ts,
// images copilot-image.ts, host upload copilot-upload.ts. Every model call is accounted in `llm_usage` per (user, app,
// purpose, model); over the quota a call is refused with `quota_exceeded` (429) before anything
// reaches the provider.
import { EmbeddingsCreateParamsSchema, normalizeSamplingParams } from "@anna-ai/app-schema";
import { LLM_MAX_TOKENS_PER_CALL, LlmCompleteArgsSchema } from "@anna-ai/app-schema/host-api";
import type { CallAccount } from "@anna-ai/agent";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { AGENT_CONTENT_MAX_CHARS, runAgentTurn } from "../copilot/agent-runs.js";
import { appSessionCaller, samplingCaller } from "../copilot/copilot-auth.js";
import { type CopilotServices, requireCopilot } from "../copilot/copilot-services.js";
import {
  type CallerIdentity,
  bearerAudience,
  serviceContextFor,
  sessionIdentity,
} from "../copilot/service-contexts.js";
import { callHostService } from "../copilot/service-http-error.js";
import { APP_SESSION_AUDIENCE } from "../tokens/audiences.js";
import { copilotImageRoutes } from "./copilot-image.js";
import { copilotSessionRoutes } from "./copilot-sessions.js";

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

async function refuseOverQuota(copilot: CopilotServices, account: CallAccount): Promise<void> {
  const decision = await copilot.usage.check(account);
  if (!decision.allowed) throw new NexusError("quota_exceeded", decision.reason);
}

/** Embeddings take an app session token or a plugin's sampling token (L9348). */
async function embeddingsIdentity(
  c: Ctx,
  deps: AppDeps,
  copilot: CopilotServices,
): Promise<CallerIdentity> {
  if (bearerAudience(c.req.header("authorization")) === APP_SESSION_AUDIENCE) {
    return sessionIdentity(await appSessionCaller(c, deps, copilot.sessions));
  }
  const t = await samplingCaller(c, deps);
  const appSlug = t.claims["app_slug"];
  return {
    userId: t.userId,
    toolId: t.toolId,
    invokeId: t.invokeId,
    appId: typeof appSlug === "string" && appSlug !== "" ? appSlug : undefined,
  };
}

export function copilotRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.route("/app/sessions", copilotSessionRoutes(deps));
  app.route("/app/image", copilotImageRoutes(deps));

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
    const ctx = serviceContextFor(sessionIdentity(caller), "complete", c.req.raw.signal, {});
    return c.json(await callHostService(() => copilot.sampling.createMessage(request, ctx)));
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
    await slideIdleWindow(deps, copilot, session);
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
        copilot.runs.finish(session.userId, runId);
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
    const who = await embeddingsIdentity(c, deps, copilot);
    // L9348: the body's identity fields, when sent, must be the token's.
    const mismatch =
      (body.user_id != null && String(body.user_id) !== who.userId) ||
      (body.executa_tool_id != null && body.executa_tool_id !== who.toolId) ||
      (body.tool_invoke_id != null && body.tool_invoke_id !== who.invokeId);
    if (mismatch) {
      throw new NexusError(
        "forbidden",
        "user_id, executa_tool_id and tool_invoke_id must be the ones the token is bound to",
      );
    }
    await refuseOverQuota(copilot, {
      userId: who.userId,
      ...(who.appId !== undefined ? { appId: who.appId } : {}),
    });
    const input = typeof body.input === "string" ? [body.input] : body.input;
    const ctx = serviceContextFor(who, "embeddings", c.req.raw.signal, {});
    return c.json(await callHostService(() => copilot.embeddings.create({ ...body, input }, ctx)));
  });

  return app;
}

/** Every run slides the session's idle window (L7102). */
async function slideIdleWindow(
  deps: AppDeps,
  copilot: CopilotServices,
  session: { table: "dev" | "copilot"; userId: number; uuid: string },
): Promise<void> {
  const now = deps.clock.now();
  if (session.table === "copilot") {
    await copilot.sessions.slide(session.userId, session.uuid, now, deps.config.devSessionIdleMs);
    return;
  }
  const dev = await deps.stores.devSessions.find(session.userId, session.uuid);
  if (dev) {
    await deps.stores.devSessions.slide(
      dev.id,
      now,
      Math.min(now + deps.config.devSessionIdleMs, dev.maxLifetimeAt),
    );
  }
}
