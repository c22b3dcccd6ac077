// `AgentService` on the server (T21, R31–R37, L10241–10255): plugins' `agent/session.*` and
// `agent/complete`, and a window's Host API `agent.*`, on the same `copilot_sessions` rows,
// `copilot_messages` conversation, `AgentRuns` registry and `llm_usage` ledger as the HTTP
// endpoints (`/copilot/app/sessions`, `/copilot/app/agent`). A session belongs to (user, tool):
// the executa's tool id for a plugin, `app:<id>` for a window, so a window's HTTP sessions and
// its Host API ones are the same sessions, and another user's or another tool's uuid is an
// unknown one (-32042). Parameters are checked by the dev tools' own checks (executa-host), so
// a plugin meets the same codes and limits in `executa dev` and here.
import { randomBytes } from "node:crypto";
import {
  type AgentSessionRunResult,
  AGENT_RUN_MAX_FRAMES,
  AGENT_SESSION_TTL_DEFAULT_S,
  normalizeSamplingParams,
  type SamplingCreateMessageParams,
} from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import { LLM_MAX_TOKENS_PER_CALL } from "@anna-ai/app-schema/host-api";
import {
  AGENT_LIST_LIMIT_DEFAULT,
  AGENT_LIST_LIMIT_MAX,
  AGENT_SESSION_MAX_LIFETIME_S,
  type AgentGrant,
  type AgentService,
  agentFinalText,
  agentRunTools,
  catalogError,
  checkAgentComplete,
  checkAgentHistoryLimit,
  checkAgentRecursionLimit,
  checkAgentSessionCreate,
  checkAgentSessionTtl,
  decodeAgentHistoryCursor,
  encodeAgentHistoryCursor,
  type ServiceContext,
} from "@anna-ai/executa-host";
import { forgetSessionHistory, sessionHistoryPage, sessionRanRun } from "./agent-messages.js";
import { AGENT_CONTENT_MAX_CHARS, type AgentFrame, runAgentTurn } from "./agent-runs.js";
import { agentErrorFromSampling, agentLimitError } from "./agent-service-errors.js";
import { createdView, historyMessage, refreshedView, summaryView } from "./agent-service-views.js";
import { type AppSession, accountOf } from "./copilot-auth.js";
import type { CopilotServices } from "./copilot-services.js";
import {
  type CopilotSessionOrigin,
  type CopilotSessionRow,
  isLiveSession,
} from "./copilot-session-store.js";
import { newSessionUuid } from "../tokens/dev-mint.js";

type Ctx = ServiceContext<AgentGrant>;

export interface CopilotAgentOptions {
  /** `sampling` for plugins' reverse calls, `window` for a window's Host API (the row's origin). */
  origin: CopilotSessionOrigin;
  /** Frames one run may produce (R33: 4096); past it the run is stopped and answers -32047. */
  maxFramesPerRun?: number;
  /** No refresh pushes a session past this age. Default 24 h, as the dev tools. */
  maxLifetimeMs?: number;
}

/** The pieces of `CopilotServices` the agent service runs on. */
export type AgentServiceDeps = Pick<
  CopilotServices,
  "db" | "gateway" | "usage" | "sessions" | "runs" | "sampling"
> & { clock: () => number };

export function copilotAgentService(
  copilot: AgentServiceDeps,
  options: CopilotAgentOptions,
): AgentService {
  const { db, sessions, runs, clock } = copilot;
  const maxFrames = options.maxFramesPerRun ?? AGENT_RUN_MAX_FRAMES;
  const maxLifetimeMs = options.maxLifetimeMs ?? AGENT_SESSION_MAX_LIFETIME_S * 1000;

  /** The caller's own session, or undefined: a uuid of another user or tool is not theirs. */
  async function owned(uuid: unknown, ctx: Ctx): Promise<CopilotSessionRow | undefined> {
    const userId = Number(ctx.userId);
    if (typeof uuid !== "string" || !Number.isSafeInteger(userId)) return undefined;
    const row = await sessions.find(userId, uuid);
    return row !== undefined && row.toolId === ctx.toolId ? row : undefined;
  }

  async function live(uuid: unknown, ctx: Ctx, method: string): Promise<CopilotSessionRow> {
    const row = await owned(uuid, ctx);
    if (row === undefined || !isLiveSession(row, clock())) {
      throw catalogError(
        AGENT_ERRORS.SESSION_NOT_FOUND,
        `${method}: app_session_uuid ${describeUuid(uuid)} is not a live session of this user and ${ctx.app ? "app" : "executa"} (unknown, deleted or expired); create a new one with agent/session.create`,
      );
    }
    return row;
  }

  const ttlOf = (row: CopilotSessionRow) => row.claims.ttl_seconds ?? AGENT_SESSION_TTL_DEFAULT_S;

  return {
    async sessionCreate(params, ctx) {
      const method = "agent/session.create";
      // A window's submode and fixed client passed the manifest's gate in the dispatcher
      // (`ui.host_api.agent.session`, R104); a plugin's fixed client must be in its grant (R32).
      const fixed = params.fixed_client_id;
      const gated: Ctx =
        options.origin === "window" && typeof fixed === "string"
          ? { ...ctx, grant: { ...ctx.grant, allowedFixedClientIds: [fixed] } }
          : ctx;
      const request = checkAgentSessionCreate(params, gated, method);
      const now = clock();
      const row = await sessions.create({
        uuid: newSessionUuid(),
        userId: Number(ctx.userId),
        origin: options.origin,
        kind: request.kind === "complete" ? "complete" : "agent",
        submode: request.kind === "complete" ? null : request.submode,
        appSlug: ctx.app?.appId ?? "",
        toolId: ctx.toolId,
        mintedBy: ctx.invokeId,
        label: request.label,
        claims: {
          fixed_client_id: request.fixedClientId ?? null,
          system_prompt: request.systemPrompt ?? null,
          ...(params.quota_caps ? { quota_caps: { ...params.quota_caps } } : {}),
          granted_tools: request.grantedTools,
          ttl_seconds: request.ttlSeconds,
        },
        createdAt: now,
        expiresAt: now + request.ttlSeconds * 1000,
        maxLifetimeAt: now + maxLifetimeMs,
      });
      return createdView(row, now);
    },

    async sessionRun(params, ctx, observer) {
      const method = "agent/session.run";
      if (typeof params.content !== "string" || params.content.trim() === "") {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `${method}: 'content' must be a non-empty string (whitespace-only is rejected)`,
        );
      }
      if (params.content.length > AGENT_CONTENT_MAX_CHARS) {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `${method}: 'content' is ${params.content.length} characters; at most ${AGENT_CONTENT_MAX_CHARS} per run`,
        );
      }
      const recursionLimit = checkAgentRecursionLimit(params.recursion_limit, method);
      const row = await live(params.app_session_uuid, ctx, method);
      if (row.kind !== "agent") {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `${method}: ${row.uuid} is a 'complete' session; create one with kind 'agent' to run the agent`,
        );
      }
      const session = appSessionOf(row);
      const account = accountOf(session);
      const decision = await copilot.usage.check(account);
      if (!decision.allowed) {
        throw catalogError(AGENT_ERRORS.QUOTA_EXCEEDED, `${method}: ${decision.reason}`);
      }
      // Every run slides the idle window (L7102), by the session's own ttl.
      await sessions.slide(session.userId, row.uuid, clock(), ttlOf(row) * 1000);
      const wanted =
        typeof params.run_id === "string" && params.run_id !== "" ? params.run_id : undefined;
      let started: ReturnType<typeof runs.start>;
      try {
        started = runs.start(
          session.userId,
          row.uuid,
          wanted ?? `run_${randomBytes(8).toString("hex")}`,
        );
      } catch (err) {
        throw agentLimitError(err, method);
      }
      const { runId, controller } = started;
      const frames: AgentFrame[] = [];
      let overflowed = false;
      const stop = () => controller.abort(ctx.signal.reason);
      ctx.signal.addEventListener("abort", stop, { once: true });
      try {
        if (ctx.signal.aborted) stop();
        await runAgentTurn({
          db,
          gateway: copilot.gateway,
          session,
          account,
          runId,
          content: params.content,
          signal: controller.signal,
          clock,
          // The cap is this service's (-32047 past it), not the SSE stream's quiet one.
          deltaBudget: Number.POSITIVE_INFINITY,
          grantedTools: agentRunTools(row.claims.granted_tools ?? ["*"], params.allowed_tools),
          recursionLimit,
          ...(typeof params.system === "string" ? { system: params.system } : {}),
          emit: async (frame) => {
            if (overflowed) return;
            if (frames.length >= maxFrames) {
              overflowed = true;
              controller.abort(new Error(`run ${runId} passed ${maxFrames} frames`));
              return;
            }
            frames.push(frame);
            observer?.onFrame(frame, runId);
          },
        });
      } finally {
        ctx.signal.removeEventListener("abort", stop);
        runs.finish(session.userId, runId);
      }
      if (overflowed) {
        throw catalogError(
          AGENT_ERRORS.RUN_TOO_LARGE,
          `${method}: run ${runId} produced more than ${maxFrames} frames, the most one run buffers; it was stopped and nothing of it was kept. Treat this as terminal: shrink the workload (a shorter answer, lower max tokens) instead of retrying`,
          { maxFrames, runId },
        );
      }
      const streamId = `strm_${randomBytes(12).toString("hex")}`;
      const result: AgentSessionRunResult & { stream_id: string } = {
        run_id: runId,
        stream_id: streamId,
        frames: frames.map((frame, seq) => ({ ...frame, seq, stream_id: streamId })),
        // Only a finished run has a final answer; a cancelled one has its deltas only.
        final: frames.some((f) => f.event === "final") ? agentFinalText(frames) : null,
      };
      return result;
    },

    async sessionCancel(params, ctx) {
      const method = "agent/session.cancel";
      const row = await live(params.app_session_uuid, ctx, method);
      const userId = Number(ctx.userId);
      if (runs.cancel(userId, params.run_id, row.uuid)) {
        return { cancelled: true, run_id: params.run_id, status: "cancelling" };
      }
      const finished = await sessionRanRun(db, { uuid: row.uuid, userId }, params.run_id);
      // Best-effort (R34): a run that already ended cannot be stopped; say which case it was.
      return {
        cancelled: false,
        run_id: params.run_id,
        status: finished ? "finished" : "unknown_run",
      };
    },

    async sessionHistory(params, ctx) {
      const method = "agent/session.history";
      const limit = checkAgentHistoryLimit(params.limit, method);
      const offset = decodeAgentHistoryCursor(params.cursor, method);
      const row = await live(params.app_session_uuid, ctx, method);
      const page = await sessionHistoryPage(
        db,
        { uuid: row.uuid, userId: row.userId },
        offset,
        limit,
      );
      return {
        messages: page.rows.map(historyMessage),
        next_cursor: page.more ? encodeAgentHistoryCursor(offset + page.rows.length) : null,
      };
    },

    async sessionList(params, ctx) {
      const raw = params.limit ?? AGENT_LIST_LIMIT_DEFAULT;
      const limit = Number.isFinite(raw)
        ? Math.min(Math.max(Math.trunc(raw), 1), AGENT_LIST_LIMIT_MAX)
        : AGENT_LIST_LIMIT_DEFAULT;
      const userId = Number(ctx.userId);
      if (!Number.isSafeInteger(userId)) return { sessions: [] };
      const now = clock();
      const rows = await sessions.listForTool(userId, ctx.toolId, {
        includeExpired: params.include_expired === true,
        limit,
        now,
      });
      const lastRun = await sessions.lastRunAt(
        userId,
        rows.map((r) => r.uuid),
      );
      return { sessions: rows.map((r) => summaryView(r, now, lastRun.get(r.uuid))) };
    },

    async sessionRefresh(params, ctx) {
      const method = "agent/session.refresh";
      const row = await live(params.app_session_uuid, ctx, method);
      const ttl = params.ttl_seconds ?? ttlOf(row);
      checkAgentSessionTtl(ttl, method);
      const now = clock();
      if (ttl !== ttlOf(row)) {
        await sessions.setClaims(row.userId, row.uuid, { ...row.claims, ttl_seconds: ttl });
      }
      if (!(await sessions.slide(row.userId, row.uuid, now, ttl * 1000))) {
        throw catalogError(
          AGENT_ERRORS.SESSION_NOT_FOUND,
          `${method}: ${row.uuid} ended while being refreshed; create a new one`,
        );
      }
      const expiresAt = Math.min(now + ttl * 1000, row.maxLifetimeAt);
      return refreshedView({ ...row, expiresAt }, now, ttl);
    },

    async sessionDelete(params, ctx) {
      // Idempotent (R36): unknown, deleted or another owner's uuids all answer deleted.
      const row = await owned(params.app_session_uuid, ctx);
      if (row !== undefined) {
        runs.cancelSession(row.userId, row.uuid);
        await sessions.revoke(row.userId, row.uuid, clock());
        await forgetSessionHistory(db, { uuid: row.uuid, userId: row.userId });
      }
      return { deleted: true };
    },

    async complete(params, ctx) {
      const method = "agent/complete";
      checkAgentComplete(params, method);
      const requested = params.maxTokens ?? params.max_tokens ?? LLM_MAX_TOKENS_PER_CALL;
      // R119: clamped to the per-call cap, silently, as `/copilot/app/complete`.
      const request = normalizeSamplingParams({
        ...(params as SamplingCreateMessageParams),
        maxTokens: Math.min(requested, LLM_MAX_TOKENS_PER_CALL),
      });
      try {
        return await copilot.sampling.createMessage(request, ctx);
      } catch (err) {
        throw agentErrorFromSampling(err, method);
      }
    },
  };
}

/** The row as the run and the usage ledger name it (the HTTP path builds the same). */
function appSessionOf(row: CopilotSessionRow): AppSession {
  return {
    uuid: row.uuid,
    table: "copilot",
    userId: row.userId,
    kind: row.kind,
    submode: row.submode,
    appSlug: row.appSlug,
    toolId: row.toolId,
    systemPrompt: row.claims.system_prompt ?? undefined,
  };
}

function describeUuid(uuid: unknown): string {
  if (typeof uuid !== "string") return "(missing)";
  return JSON.stringify(uuid.length > 80 ? `${uuid.slice(0, 80)}…` : uuid);
}
