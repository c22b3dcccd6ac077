// `agent/session.*` and `agent/complete` (and an app window's `agent.session.*`) answered by a
// Nexus (spec L11612–11619, L7547–7560): create mints a `kind=agent` dev session; run streams
// `POST /copilot/app/agent` and buffers its frames into the result (cap 4096 → -32047); cancel
// posts the server's run id to `…/agent/cancel`; refresh, delete and list are the PAT-authed dev
// endpoints, so a session survives a restart of the tool (its token is re-derived from the uuid);
// complete is one `POST /copilot/app/complete` on the shared complete session. The server keeps
// the conversation; `history` answers from the runs this process made (the server has no history
// endpoint for dev sessions), newest last.
import {
  AGENT_HISTORY_LIMIT_DEFAULT,
  AGENT_RUN_MAX_FRAMES,
  normalizeAgentSessionCreate,
  type AgentCompleteResult,
  type AgentFrame,
  type AgentHistoryMessage,
} from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError, type AgentService } from "@anna-ai/executa-host";
import { USER_AGENT, type NexusClient } from "../account/nexus-client.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { copilotAnswerError, copilotFailure } from "./copilot-errors.js";
import { copilotPost } from "./copilot-request.js";
import { readAgentFrames } from "./agent-stream.js";
import type { CompleteSessions, DevAppSession, DevAppSessions } from "./dev-app-sessions.js";
import { COMPLETE_PATH, type SessionKeyOf } from "./nexus-sampling.js";

export const AGENT_PATH = "/api/v1/copilot/app/agent";
export const AGENT_CANCEL_PATH = "/api/v1/copilot/app/agent/cancel";
/** Sessions whose token and transcript this process keeps (least recently used dropped). */
export const AGENT_SESSIONS_KEPT_MAX = 256;
/** Messages of one session's local transcript. */
export const AGENT_TRANSCRIPT_MAX_MESSAGES = 400;
const HISTORY_LIMIT_MAX = 200;
const LIST_LIMIT_MAX = 100;

interface KeptSession {
  session: DevAppSession;
  transcript: AgentHistoryMessage[];
}

export interface NexusAgentOptions {
  client: NexusClient;
  sessions: DevAppSessions;
  complete: CompleteSessions;
  keyOf: SessionKeyOf;
  fetch?: typeof fetch;
  maxFramesPerRun?: number;
}

export function nexusAgentService(options: NexusAgentOptions): AgentService {
  const { client, sessions } = options;
  const send = options.fetch ?? fetch;
  const kept = new Map<string, KeptSession>();
  /** The plugin's run id (or the server's) → the server's, while a run streams. */
  const runs = new Map<string, string>();

  const keep = (entry: KeptSession) => {
    kept.delete(entry.session.uuid);
    if (kept.size >= AGENT_SESSIONS_KEPT_MAX) {
      const oldest = kept.keys().next().value;
      if (oldest !== undefined) kept.delete(oldest);
    }
    kept.set(entry.session.uuid, entry);
    return entry;
  };

  /** The session's entry with a fresh token, re-derived from the uuid when needed. */
  async function live(uuid: string, signal?: AbortSignal): Promise<KeptSession> {
    const entry = kept.get(uuid);
    if (entry !== undefined && !sessions.stale(entry.session)) return entry;
    try {
      const session = await sessions.refresh(uuid, signal);
      return keep({ session, transcript: entry?.transcript ?? [] });
    } catch (error) {
      if (error instanceof NexusRequestError && (error.status === 404 || error.status === 410)) {
        kept.delete(uuid);
        throw catalogError(
          AGENT_ERRORS.SESSION_NOT_FOUND,
          `app_session_uuid ${uuid} is not a live session of app ${sessions.appSlug} on ${sessions.host} (${error.message}); create a new one with agent/session.create`,
          {},
          { cause: error },
        );
      }
      throw copilotFailure("agent", error);
    }
  }

  const service: AgentService = {
    async sessionCreate(params, ctx) {
      const request = normalizeAgentSessionCreate(params);
      let session: DevAppSession;
      try {
        session = await sessions.mint(
          {
            kind: "agent",
            submode: request.submode,
            ...(request.fixedClientId ? { fixedClientId: request.fixedClientId } : {}),
            label: request.label ?? ctx.pluginName,
            ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
            ...(request.quotaCaps ? { quotaCaps: request.quotaCaps } : {}),
          },
          ctx.signal,
        );
      } catch (error) {
        throw copilotFailure("agent", error);
      }
      keep({ session, transcript: [] });
      return {
        app_session_uuid: session.uuid,
        thread_id: session.uuid,
        agent_submode: request.submode,
        fixed_client_id: request.fixedClientId ?? null,
        granted_tools: [],
        expires_in: Math.max(0, Math.round((session.tokenExpiresAt - Date.now()) / 1000)),
        kind: "agent",
        label: session.label ?? request.label ?? ctx.pluginName,
        expires_at: session.expiresAt,
      } as Awaited<ReturnType<AgentService["sessionCreate"]>>;
    },

    async sessionRun(params, ctx, observer) {
      const entry = await live(params.app_session_uuid, ctx.signal);
      const what = `POST ${AGENT_PATH}`;
      let res: Response;
      try {
        res = await send(new URL(AGENT_PATH, client.host), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            "user-agent": USER_AGENT,
            authorization: `Bearer ${entry.session.token}`,
          },
          body: JSON.stringify({ content: params.content, app_session_uuid: entry.session.uuid }),
          signal: ctx.signal,
        });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        throw catalogError(
          AGENT_ERRORS.PROVIDER_ERROR,
          `cannot reach ${client.host} (${what}): ${(error as Error).message}`,
          {},
          { cause: error },
        );
      }
      if (!res.ok || res.body === null) {
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // a plain-text answer is shown as it is
        }
        if (res.status === 410 || res.status === 401) kept.delete(entry.session.uuid);
        throw copilotAnswerError("agent", { host: client.host, what, status: res.status, body });
      }
      const serverRun = res.headers.get("x-anna-run-id") ?? "";
      const localRun = params.run_id ?? serverRun;
      runs.set(localRun, serverRun);
      let frames: AgentFrame[];
      try {
        frames = await readAgentFrames(res.body, {
          what,
          maxFrames: options.maxFramesPerRun ?? AGENT_RUN_MAX_FRAMES,
          ...(observer === undefined
            ? {}
            : { onFrame: (frame: AgentFrame) => observer.onFrame(frame, localRun) }),
        });
      } finally {
        runs.delete(localRun);
      }
      const failed = frames.find((f) => f.event === "error");
      const final = frames.find((f) => f.event === "final");
      if (failed !== undefined && final === undefined) {
        const said = typeof failed.message === "string" ? failed.message : JSON.stringify(failed);
        throw catalogError(
          AGENT_ERRORS.PROVIDER_ERROR,
          `the agent run on ${client.host} failed: ${said}`,
          {
            run_id: serverRun,
          },
        );
      }
      const finalText = typeof final?.text === "string" ? final.text : null;
      remember(entry, { role: "user", content: params.content });
      if (finalText !== null) remember(entry, { role: "assistant", content: finalText });
      return { run_id: localRun, frames, final: finalText, stream_id: serverRun } as Awaited<
        ReturnType<AgentService["sessionRun"]>
      >;
    },

    async sessionCancel(params, ctx) {
      const serverRun = runs.get(params.run_id) ?? params.run_id;
      const entry = await live(params.app_session_uuid, ctx.signal);
      try {
        const res = await client.post(AGENT_CANCEL_PATH, {
          body: { run_id: serverRun, app_session_uuid: entry.session.uuid },
          auth: false,
          headers: { authorization: `Bearer ${entry.session.token}` },
          allowStatuses: [404],
          what: `POST ${AGENT_CANCEL_PATH}`,
          signal: ctx.signal,
        });
        return { cancelled: res.status === 200 };
      } catch (error) {
        throw copilotFailure("agent", error);
      }
    },

    async sessionHistory(params) {
      const limit = params.limit ?? AGENT_HISTORY_LIMIT_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_LIMIT_MAX) {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `agent/session.history: limit ${limit} is outside 1..${HISTORY_LIMIT_MAX}`,
        );
      }
      const start = params.cursor == null ? 0 : Number(params.cursor);
      if (!Number.isInteger(start) || start < 0) {
        throw catalogError(
          AGENT_ERRORS.INVALID_REQUEST,
          `agent/session.history: cursor ${JSON.stringify(params.cursor)} is not one this host returned`,
        );
      }
      const entry = kept.get(params.app_session_uuid) ?? (await live(params.app_session_uuid));
      const page = entry.transcript.slice(start, start + limit);
      const next = start + page.length;
      return {
        messages: page,
        next_cursor: next < entry.transcript.length ? String(next) : null,
      };
    },

    async sessionList(params) {
      const limit = Math.min(Math.max(params.limit ?? 50, 1), LIST_LIMIT_MAX);
      try {
        const listed = await sessions.list({
          kind: "agent",
          includeExpired: params.include_expired === true,
          limit,
        });
        return {
          sessions: listed.map((s) => ({
            app_session_uuid: s.app_session_uuid,
            submode: s.submode,
            label: s.label,
            created_at: s.created_at,
            expires_at: s.expires_at,
          })),
        };
      } catch (error) {
        throw copilotFailure("agent", error);
      }
    },

    async sessionRefresh(params, ctx) {
      const entry = kept.get(params.app_session_uuid);
      if (entry !== undefined) entry.session = { ...entry.session, tokenExpiresAt: 0 };
      const fresh = await live(params.app_session_uuid, ctx.signal);
      return {
        app_session_uuid: fresh.session.uuid,
        expires_in: Math.max(0, Math.round((fresh.session.tokenExpiresAt - Date.now()) / 1000)),
        expires_at: fresh.session.expiresAt,
      };
    },

    async sessionDelete(params) {
      kept.delete(params.app_session_uuid);
      try {
        // Idempotent (R36): a session the server does not know is deleted too.
        await sessions.revoke(params.app_session_uuid);
        return { deleted: true };
      } catch (error) {
        throw copilotFailure("agent", error);
      }
    },

    complete(params, ctx) {
      const key = options.keyOf(ctx);
      // Reverse-correlation fields are this host's, not the server's.
      const { metadata: _metadata, context: _context, ...body } = params;
      return copilotPost<AgentCompleteResult>(
        client,
        "agent",
        COMPLETE_PATH,
        body,
        { token: () => options.complete.token(key), forget: () => options.complete.forget(key) },
        ctx.signal,
      );
    },
  };
  return service;
}

function remember(entry: KeptSession, message: AgentHistoryMessage): void {
  entry.transcript.push(message);
  if (entry.transcript.length > AGENT_TRANSCRIPT_MAX_MESSAGES) entry.transcript.shift();
}
