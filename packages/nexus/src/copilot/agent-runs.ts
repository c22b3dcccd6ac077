// One `POST /copilot/app/agent` turn: the session's conversation (the newest messages of
// `copilot_messages`) plus the new content go to the chat model; its deltas stream out as frames
// while they arrive; the exchange is stored once the model finishes. Frames are the ones the dev
// tools' agent produces (`run_meta`, `delta`, `final`, `complete`; L8781) so a plugin or an app
// sees the same run offline and here. `cancel` aborts the model call and the run ends with
// `complete {aborted: true}` (L7125).
import { randomBytes } from "node:crypto";
import type { CallAccount, ChatMessage, LlmGateway, Usage } from "@anna-ai/agent";
import type { Kysely } from "kysely";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import { sessionHistory } from "./agent-messages.js";
import type { AppSession } from "./copilot-auth.js";

export { AGENT_HISTORY_MAX_MESSAGES } from "./agent-messages.js";
/** Characters of one agent run's `content` (HTTP and the agent service alike). */
export const AGENT_CONTENT_MAX_CHARS = 32_000;
/** Characters of one stored message; longer answers are kept cut (the stream had them whole). */
export const AGENT_MESSAGE_MAX_CHARS = 64_000;
/** Runs in flight on this node; one more is refused with 429 rather than queued unbounded. */
export const AGENT_MAX_RUNS_IN_FLIGHT = 256;
/** Runs in flight per user. */
export const AGENT_MAX_RUNS_PER_USER = 8;
/** Frames of one run (L8781: the bridge buffers at most 4096). */
export const AGENT_MAX_FRAMES_PER_RUN = 4096;

export type AgentFrame = Record<string, unknown> & { event: string };

interface InFlight {
  userId: number;
  sessionUuid: string;
  controller: AbortController;
}

export interface AgentRunLimits {
  maxInFlight: number;
  maxPerUser: number;
}

/** Runs in flight, by (user, run id), so a cancel (another request) reaches the one streaming. */
export class AgentRuns {
  readonly #runs = new Map<string, InFlight>();
  readonly #limits: AgentRunLimits;

  constructor(limits: Partial<AgentRunLimits> = {}) {
    this.#limits = {
      maxInFlight: limits.maxInFlight ?? AGENT_MAX_RUNS_IN_FLIGHT,
      maxPerUser: limits.maxPerUser ?? AGENT_MAX_RUNS_PER_USER,
    };
  }

  /**
   * Registers a run; `runId` is the caller's (a plugin may name its run, R33) or a fresh one.
   * Run ids are per user: two users naming their runs alike never reach each other's.
   */
  start(
    userId: number,
    sessionUuid: string,
    runId = `run_${randomBytes(12).toString("hex")}`,
  ): { runId: string; controller: AbortController } {
    const { maxInFlight, maxPerUser } = this.#limits;
    if (this.#runs.size >= maxInFlight) {
      throw new NexusError(
        "rate_limited",
        `this server runs ${maxInFlight} agent runs at most; retry shortly`,
        { retryAfterS: 1 },
      );
    }
    let mine = 0;
    for (const r of this.#runs.values()) if (r.userId === userId) mine += 1;
    if (mine >= maxPerUser) {
      throw new NexusError(
        "rate_limited",
        `at most ${maxPerUser} agent runs per user at once; wait for one to end or cancel it`,
        { retryAfterS: 1 },
      );
    }
    const key = runKey(userId, runId);
    if (this.#runs.has(key)) {
      throw new NexusError(
        "invalid_request",
        `run ${runId} is already in flight; pick another run_id or cancel that run first`,
      );
    }
    const controller = new AbortController();
    this.#runs.set(key, { userId, sessionUuid, controller });
    return { runId, controller };
  }

  finish(userId: number, runId: string): void {
    this.#runs.delete(runKey(userId, runId));
  }

  /**
   * False when no run of this user has that id (ended, or another user's); with `sessionUuid`,
   * also when the run belongs to another session of the user.
   */
  cancel(userId: number, runId: string, sessionUuid?: string): boolean {
    const run = this.#runs.get(runKey(userId, runId));
    if (!run || (sessionUuid !== undefined && run.sessionUuid !== sessionUuid)) return false;
    run.controller.abort(new Error(`run ${runId} was cancelled`));
    return true;
  }

  /** Aborts every run of one session (its deletion, L10251); how many there were. */
  cancelSession(userId: number, sessionUuid: string): number {
    let cancelled = 0;
    for (const run of this.#runs.values()) {
      if (run.userId === userId && run.sessionUuid === sessionUuid) {
        run.controller.abort(new Error(`session ${sessionUuid} was deleted`));
        cancelled += 1;
      }
    }
    return cancelled;
  }

  get size(): number {
    return this.#runs.size;
  }
}

function runKey(userId: number, runId: string): string {
  return `${userId}\u0000${runId}`;
}

export interface AgentRunInput {
  db: Kysely<Database>;
  gateway: LlmGateway;
  session: AppSession;
  account: CallAccount;
  runId: string;
  content: string;
  signal: AbortSignal;
  clock: () => number;
  /** Writes one frame to the client; resolves when written. */
  emit(frame: AgentFrame): Promise<void>;
  /** This run's system prompt instead of the session's (R33 `system`; not persisted). */
  system?: string;
  /** Reported in `run_meta` (the tools this run may use). Default none. */
  grantedTools?: readonly string[];
  /** Reported in `run_meta` when the caller set one (R33). */
  recursionLimit?: number;
  /**
   * `delta` frames sent before the rest are held back (their text still reaches `final`).
   * Default: what fits the 4096-frame cap. A caller that enforces the cap itself (the plugins'
   * buffered run answers -32047 past it) passes `Infinity`.
   */
  deltaBudget?: number;
}

/** Runs the turn to its end; never throws: a failure becomes an `error` frame, then `complete`. */
export async function runAgentTurn(input: AgentRunInput): Promise<void> {
  const { session, runId } = input;
  const model = input.gateway.modelFor("agent");
  const emit = input.emit;
  // Past the frame cap no more deltas go out, but nothing is lost: `final` carries the whole
  // text and says the deltas stopped (run_meta, final, complete and an error fit in the rest).
  const deltaBudget = input.deltaBudget ?? AGENT_MAX_FRAMES_PER_RUN - 4;
  let deltasLeft = deltaBudget;
  await emit({
    event: "run_meta",
    run_id: runId,
    thread_id: session.uuid,
    model: model.model,
    provider: model.provider,
    granted_tools: [...(input.grantedTools ?? [])],
    ...(input.recursionLimit !== undefined ? { recursion_limit: input.recursionLimit } : {}),
  });
  const system = input.system ?? session.systemPrompt;
  const history = await sessionHistory(input.db, session);
  const messages: ChatMessage[] = [
    ...history.map((m) => ({ role: m.role, content: m.content })),
    { role: "user", content: input.content },
  ];
  let text = "";
  let usage: Usage | undefined;
  try {
    for await (const event of input.gateway.streamChat(
      { messages, ...(system ? { system } : {}) },
      { account: input.account, purpose: "agent", signal: input.signal },
    )) {
      if (event.type === "text-delta") {
        text += event.text;
        if (deltasLeft > 0) await emit({ event: "delta", text: event.text });
        deltasLeft -= 1;
      } else if (event.type === "finish") {
        usage = event.usage;
      }
    }
  } catch (err) {
    if (input.signal.aborted) {
      await emit({ event: "complete", run_id: runId, aborted: true, text });
      return;
    }
    const code = (err as { code?: unknown }).code;
    await emit({
      event: "error",
      run_id: runId,
      code: typeof code === "string" ? code : "provider_error",
      message: (err as Error).message,
    });
    await emit({ event: "complete", run_id: runId, aborted: false, error: true });
    return;
  }
  const now = input.clock();
  await input.db
    .insertInto("copilot_messages")
    .values([
      {
        session_uuid: session.uuid,
        user_id: session.userId,
        run_id: runId,
        role: "user",
        content: input.content.slice(0, AGENT_MESSAGE_MAX_CHARS),
        created_at: now,
      },
      {
        session_uuid: session.uuid,
        user_id: session.userId,
        run_id: runId,
        role: "assistant",
        content: text.slice(0, AGENT_MESSAGE_MAX_CHARS),
        created_at: now,
      },
    ])
    .execute();
  await emit({
    event: "final",
    text,
    usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    ...(deltasLeft < 0 ? { deltas_capped_at: deltaBudget } : {}),
  });
  await emit({ event: "complete", run_id: runId, aborted: false });
}
