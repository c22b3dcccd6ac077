// The offline agent service behind `executa dev --no-agent | --mock-agent` (T21, R31–R38, V2).
// `off` answers every call with -32041 agent_not_granted (R167). `mock` keeps real session
// semantics in memory — owner-checked uuids, ttl and expiry, history, list, refresh, idempotent
// delete — and answers the model part from a mock-answer file: a matching line's `result` or
// `error` answers the call, a `session.run` line's `events` become the run's frames, and without
// a matching line a deterministic synthetic run or completion answers. Validation happens
// before the fixture is asked, with the codes the Reference's bridge uses (R32–R37).
import { AGENT_RUN_MAX_FRAMES, AGENT_SESSION_UUID_PREFIX } from "@anna-ai/app-schema";
import type {
  AgentCompleteResult,
  AgentSessionCancelResult,
  AgentSessionCreateResult,
  AgentSessionHistoryResult,
  AgentSessionListResult,
  AgentSessionRefreshResult,
  AgentSessionRunResult,
  AgentSessionSummary,
} from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import type { AgentService } from "../agent-service.js";
import type { AgentGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import { SERVICE_WIRE_METHODS } from "../service-wire-methods.js";
import {
  checkComplete,
  checkCreate,
  checkHistoryLimit,
  checkRecursionLimit,
  checkTtl,
  runTools,
} from "./agent-checks.js";
import { syntheticCompletion } from "./agent-complete.js";
import type { FrameDraft } from "./agent-frames.js";
import {
  checkFrameCap,
  finalText,
  fixtureFrames,
  syntheticFrames,
  tagFrames,
} from "./agent-frames.js";
import { decodeHistoryCursor, encodeHistoryCursor, transcriptOf } from "./agent-history.js";
import { canonicalCallParams, hashHex } from "./agent-ids.js";
import { AGENT_SESSION_CACHE_MAX_ENTRIES, AgentSessionTable } from "./agent-sessions.js";
import type { AgentSessionOwner, AgentSessionRecord } from "./agent-sessions.js";
import { fixtureError } from "./agent-mock-answer.js";
import type { MockFixture } from "./mock-fixture.js";

/** `list` page size: default 50, clamped to 1..100 (L10253). */
export const AGENT_LIST_LIMIT_DEFAULT = 50;
export const AGENT_LIST_LIMIT_MAX = 100;
/** No refresh pushes a session past this age (`max_lifetime_at`; the spec gives no value). */
export const AGENT_SESSION_MAX_LIFETIME_S = 24 * 3600;

export interface OfflineAgentOptions {
  mode: "off" | "mock";
  /** Mock-answer file (`ns:"agent"` lines); without one every answer is synthetic. */
  fixture?: MockFixture;
  /** Epoch ms for expiry and timestamps. Default `Date.now`. */
  clock?: () => number;
  /** Frames buffered per run (R33: 4096). */
  maxFramesPerRun?: number;
  /** Sessions kept, least recently used evicted first (T21: ~4096). */
  maxSessions?: number;
}

/** `session.create` answers with the Reference fields plus what real hosts add. */
export type OfflineAgentCreateResult = AgentSessionCreateResult & {
  kind: string;
  label: string;
  expires_at: string;
};

/** A run's result with the stream it was tagged with (L7273). */
export type OfflineAgentRunResult = AgentSessionRunResult & { stream_id: string };

type Ctx = ServiceContext<AgentGrant>;
type Params = Record<string, unknown>;

const WIRE_METHODS = SERVICE_WIRE_METHODS.agent;

export function createOfflineAgentService(options: OfflineAgentOptions): AgentService {
  if (options.mode === "off") return disabledAgentService();
  const clock = options.clock ?? Date.now;
  const fixture = options.fixture;
  const maxFrames = options.maxFramesPerRun ?? AGENT_RUN_MAX_FRAMES;
  const sessions = new AgentSessionTable(options.maxSessions ?? AGENT_SESSION_CACHE_MAX_ENTRIES);
  let sessionCounter = 0;
  let runCounter = 0;

  /** The fixture's answer for a call, `undefined` when no line matches. */
  function fromFixture(method: string, params: unknown): { value: unknown } | undefined {
    const entry = fixture?.find(method, params);
    if (entry === undefined) return undefined;
    if (entry.error !== undefined) throw fixtureError(entry, "agent");
    if (entry.result === undefined) return undefined;
    return { value: structuredClone(entry.result) };
  }

  function live(uuid: unknown, ctx: Ctx, method: string): AgentSessionRecord {
    const found = typeof uuid === "string" ? sessions.find(uuid, owner(ctx), clock()) : undefined;
    if (found === undefined) {
      throw catalogError(
        AGENT_ERRORS.SESSION_NOT_FOUND,
        `${method}: app_session_uuid ${describeUuid(uuid)} is not a live session of this user and executa (unknown, deleted, expired or from a restarted host); create a new one with agent/session.create`,
      );
    }
    return found;
  }

  const service: AgentService = {
    async sessionCreate(params, ctx) {
      const method = WIRE_METHODS.sessionCreate;
      const request = checkCreate(params, ctx, method);
      const now = clock();
      sessionCounter += 1;
      const digest = hashHex([
        "agent-session",
        sessionCounter,
        ctx.userId,
        ctx.toolId,
        canonicalCallParams(params),
      ]);
      const answered = fromFixture(method, params);
      const fixtureUuid = recordOf(answered?.value)?.["app_session_uuid"];
      const uuid =
        typeof fixtureUuid === "string" && fixtureUuid.startsWith(AGENT_SESSION_UUID_PREFIX)
          ? fixtureUuid
          : `${AGENT_SESSION_UUID_PREFIX}${digest}`;
      const fixtureThread = recordOf(answered?.value)?.["thread_id"];
      const record: AgentSessionRecord = {
        uuid,
        seq: sessionCounter,
        userId: ctx.userId,
        toolId: ctx.toolId,
        threadId:
          typeof fixtureThread === "string" ? fixtureThread : `thr_${hashHex(["thread", digest])}`,
        kind: request.kind,
        submode: request.submode,
        fixedClientId: request.fixedClientId ?? null,
        label: request.label,
        grantedTools: request.grantedTools,
        ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
        ttlSeconds: request.ttlSeconds,
        createdAtMs: now,
        lastActiveAtMs: now,
        expiresAtMs: now + request.ttlSeconds * 1000,
        maxLifetimeAtMs: now + AGENT_SESSION_MAX_LIFETIME_S * 1000,
        history: [],
        runIds: new Set(),
      };
      sessions.add(record);
      if (answered !== undefined) return answered.value as AgentSessionCreateResult;
      const result: OfflineAgentCreateResult = {
        app_session_uuid: record.uuid,
        thread_id: record.threadId,
        kind: record.kind,
        agent_submode: record.submode,
        fixed_client_id: record.fixedClientId,
        granted_tools: [...record.grantedTools],
        expires_in: record.ttlSeconds,
        expires_at: iso(record.expiresAtMs),
        label: record.label,
      };
      return result;
    },

    async sessionRun(params, ctx) {
      const method = WIRE_METHODS.sessionRun;
      if (typeof params.content !== "string" || params.content.trim() === "") {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `${method}: 'content' must be a non-empty string (whitespace-only is rejected)`,
        );
      }
      const recursionLimit = checkRecursionLimit(params.recursion_limit, method);
      const session = live(params.app_session_uuid, ctx, method);
      runCounter += 1;
      const runId =
        typeof params.run_id === "string" && params.run_id !== ""
          ? params.run_id
          : `run_${hashHex(["agent-run", runCounter, session.uuid, canonicalCallParams(params)], 16)}`;
      const streamId = `strm_${hashHex(["agent-stream", runCounter, session.uuid, runId], 24)}`;

      const entry = fixture?.find(method, params);
      let frames: FrameDraft[];
      if (entry?.error !== undefined) {
        throw fixtureError(entry, "agent");
      } else if (entry?.events !== undefined) {
        const read = fixtureFrames(entry.events, `${fixture?.file ?? "<fixture>"}:${entry.line}`);
        if ("error" in read) throw read.error;
        frames = read.frames;
      } else if (entry?.result !== undefined) {
        // A whole result written in the fixture is returned as written, after the cap.
        const written = structuredClone(entry.result);
        const writtenFrames = recordOf(written)?.["frames"];
        if (Array.isArray(writtenFrames)) checkFrameCap(writtenFrames.length, maxFrames);
        remember(session, runId, params.content, Array.isArray(writtenFrames) ? writtenFrames : []);
        return written as AgentSessionRunResult;
      } else {
        frames = syntheticFrames({
          runId,
          threadId: session.threadId,
          content: params.content,
          grantedTools: runTools(session.grantedTools, params.allowed_tools),
          recursionLimit,
        });
      }
      checkFrameCap(frames.length, maxFrames);
      remember(session, runId, params.content, frames);
      const result: OfflineAgentRunResult = {
        run_id: runId,
        stream_id: streamId,
        frames: tagFrames(frames, streamId),
        final: finalText(frames),
      };
      return result;
    },

    async sessionCancel(params, ctx) {
      const method = WIRE_METHODS.sessionCancel;
      const session = live(params.app_session_uuid, ctx, method);
      const answered = fromFixture(method, params);
      if (answered !== undefined) return answered.value as AgentSessionCancelResult;
      // Offline runs finish before session.run answers, so there is never one to stop; the
      // call is best-effort upstream too (R34).
      const known = session.runIds.has(params.run_id);
      const result: AgentSessionCancelResult & { run_id: string; status: string } = {
        cancelled: false,
        run_id: params.run_id,
        status: known ? "finished" : "unknown_run",
      };
      return result;
    },

    async sessionHistory(params, ctx) {
      const method = WIRE_METHODS.sessionHistory;
      const limit = checkHistoryLimit(params.limit, method);
      const offset = decodeHistoryCursor(params.cursor, method);
      const session = live(params.app_session_uuid, ctx, method);
      const answered = fromFixture(method, params);
      if (answered !== undefined) return answered.value as AgentSessionHistoryResult;
      const messages = session.history.slice(offset, offset + limit);
      const end = offset + messages.length;
      return {
        messages: structuredClone(messages),
        next_cursor: end < session.history.length ? encodeHistoryCursor(end) : null,
      };
    },

    async sessionList(params, ctx) {
      const method = WIRE_METHODS.sessionList;
      const answered = fromFixture(method, params);
      if (answered !== undefined) return answered.value as AgentSessionListResult;
      const raw = params.limit ?? AGENT_LIST_LIMIT_DEFAULT;
      const limit = Number.isFinite(raw)
        ? Math.min(Math.max(Math.trunc(raw), 1), AGENT_LIST_LIMIT_MAX)
        : AGENT_LIST_LIMIT_DEFAULT;
      const now = clock();
      const rows = sessions.list(owner(ctx), now, params.include_expired === true).slice(0, limit);
      return { sessions: rows.map((row) => summary(row, now)) };
    },

    async sessionRefresh(params, ctx) {
      const method = WIRE_METHODS.sessionRefresh;
      const session = live(params.app_session_uuid, ctx, method);
      const ttl = params.ttl_seconds ?? session.ttlSeconds;
      checkTtl(ttl, method);
      const answered = fromFixture(method, params);
      const now = clock();
      session.ttlSeconds = ttl;
      session.expiresAtMs = Math.min(now + ttl * 1000, session.maxLifetimeAtMs);
      session.lastActiveAtMs = now;
      if (answered !== undefined) return answered.value as AgentSessionRefreshResult;
      const result: AgentSessionRefreshResult & Params = {
        app_session_uuid: session.uuid,
        expires_in: Math.max(0, Math.floor((session.expiresAtMs - now) / 1000)),
        expires_at: iso(session.expiresAtMs),
        submode: session.submode,
        fixed_client_id: session.fixedClientId,
        max_lifetime_at: iso(session.maxLifetimeAtMs),
        idle_ttl_seconds: ttl,
        session_expires_in: Math.max(0, Math.floor((session.maxLifetimeAtMs - now) / 1000)),
      };
      return result;
    },

    async sessionDelete(params, ctx) {
      const method = WIRE_METHODS.sessionDelete;
      // Always evicts first (R36), whatever the fixture then says.
      sessions.delete(params.app_session_uuid, owner(ctx));
      const answered = fromFixture(method, params);
      if (answered !== undefined) return answered.value as { deleted: boolean };
      return { deleted: true };
    },

    async complete(params, _ctx) {
      const method = WIRE_METHODS.complete;
      checkComplete(params, method);
      const answered = fromFixture(method, params);
      if (answered !== undefined) return answered.value as AgentCompleteResult;
      return syntheticCompletion(params);
    },
  };

  function remember(
    session: AgentSessionRecord,
    runId: string,
    content: string,
    frames: readonly unknown[],
  ): void {
    const asFrames = frames.filter(
      (f): f is FrameDraft =>
        recordOf(f) !== undefined && typeof (f as Params)["event"] === "string",
    );
    session.history.push(...transcriptOf(content, asFrames));
    session.runIds.add(runId);
    session.lastActiveAtMs = clock();
  }

  return service;
}

function summary(row: AgentSessionRecord, now: number): AgentSessionSummary {
  const full: AgentSessionSummary & Params = {
    app_session_uuid: row.uuid,
    kind: row.kind,
    submode: row.submode,
    fixed_client_id: row.fixedClientId,
    label: row.label,
    thread_id: row.threadId,
    created_at: iso(row.createdAtMs),
    last_active_at: iso(row.lastActiveAtMs),
    expires_at: iso(row.expiresAtMs),
    max_lifetime_at: iso(row.maxLifetimeAtMs),
    expired: now >= row.expiresAtMs,
  };
  return full;
}

function owner(ctx: Ctx): AgentSessionOwner {
  return { userId: ctx.userId, toolId: ctx.toolId };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function recordOf(value: unknown): Params | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Params)
    : undefined;
}

function describeUuid(uuid: unknown): string {
  if (typeof uuid !== "string") return "(missing)";
  return JSON.stringify(uuid.length > 80 ? `${uuid.slice(0, 80)}…` : uuid);
}

/** `--no-agent`: every method is -32041 `agent_not_granted` (R167). */
function disabledAgentService(): AgentService {
  const refuse = (method: string) => () =>
    Promise.reject(
      catalogError(
        AGENT_ERRORS.NOT_GRANTED,
        `${method} is disabled on this host (agent off); start executa dev with --mock-agent <fixture.jsonl> to serve it`,
        { reason: "DISABLED" },
      ),
    );
  return {
    sessionCreate: refuse(WIRE_METHODS.sessionCreate),
    sessionRun: refuse(WIRE_METHODS.sessionRun),
    sessionCancel: refuse(WIRE_METHODS.sessionCancel),
    sessionHistory: refuse(WIRE_METHODS.sessionHistory),
    sessionList: refuse(WIRE_METHODS.sessionList),
    sessionRefresh: refuse(WIRE_METHODS.sessionRefresh),
    sessionDelete: refuse(WIRE_METHODS.sessionDelete),
    complete: refuse(WIRE_METHODS.complete),
  };
}
