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
import type { AppSession } from "./copilot-auth.js";

/** Messages of history a run replays (user and assistant turns, newest kept). */
export const AGENT_HISTORY_MAX_MESSAGES = 40;
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

/** Runs in flight, by run id, so a cancel (another request) reaches the one streaming. */
export class AgentRuns {
  readonly #runs = new Map<string, InFlight>();

  start(userId: number, sessionUuid: string): { runId: string; controller: AbortController } {
    if (this.#runs.size >= AGENT_MAX_RUNS_IN_FLIGHT) {
      throw new NexusError(
        "rate_limited",
        `this server runs ${AGENT_MAX_RUNS_IN_FLIGHT} agent runs at most; retry shortly`,
        { retryAfterS: 1 },
      );
    }
    let mine = 0;
    for (const r of this.#runs.values()) if (r.userId === userId) mine += 1;
    if (mine >= AGENT_MAX_RUNS_PER_USER) {
      throw new NexusError(
        "rate_limited",
        `at most ${AGENT_MAX_RUNS_PER_USER} agent runs per user at once; wait for one to end or cancel it`,
        { retryAfterS: 1 },
      );
    }
    const runId = `run_${randomBytes(12).toString("hex")}`;
    const controller = new AbortController();
    this.#runs.set(runId, { userId, sessionUuid, controller });
    return { runId, controller };
  }

  finish(runId: string): void {
    this.#runs.delete(runId);
  }

  /** False when no run of this user has that id (ended, or another user's). */
  cancel(userId: number, runId: string): boolean {
    const run = this.#runs.get(runId);
    if (!run || run.userId !== userId) return false;
    run.controller.abort(new Error("cancelled by POST /copilot/app/agent/cancel"));
    return true;
  }

  get size(): number {
    return this.#runs.size;
  }
}

export async function sessionHistory(
  db: Kysely<Database>,
  session: Pick<AppSession, "uuid" | "userId">,
  limit = AGENT_HISTORY_MAX_MESSAGES,
): Promise<{ role: "user" | "assistant"; content: string; run_id: string; created_at: number }[]> {
  const rows = await db
    .selectFrom("copilot_messages")
    .select(["role", "content", "run_id", "created_at"])
    .where("session_uuid", "=", session.uuid)
    .where("user_id", "=", session.userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    role: r.role as "user" | "assistant",
    content: r.content,
    run_id: r.run_id,
    created_at: Number(r.created_at),
  }));
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
}

/** Runs the turn to its end; never throws: a failure becomes an `error` frame, then `complete`. */
export async function runAgentTurn(input: AgentRunInput): Promise<void> {
  const { session, runId } = input;
  const model = input.gateway.modelFor("agent");
  const emit = input.emit;
  // Past the frame cap no more deltas go out, but nothing is lost: `final` carries the whole
  // text and says the deltas stopped (run_meta, final, complete and an error fit in the rest).
  let deltasLeft = AGENT_MAX_FRAMES_PER_RUN - 4;
  await emit({
    event: "run_meta",
    run_id: runId,
    thread_id: session.uuid,
    model: model.model,
    provider: model.provider,
    granted_tools: [],
  });
  const history = await sessionHistory(input.db, session);
  const messages: ChatMessage[] = [
    ...history.map((m) => ({ role: m.role, content: m.content })),
    { role: "user", content: input.content },
  ];
  let text = "";
  let usage: Usage | undefined;
  try {
    for await (const event of input.gateway.streamChat(
      { messages, ...(session.systemPrompt ? { system: session.systemPrompt } : {}) },
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
    ...(deltasLeft < 0 ? { deltas_capped_at: AGENT_MAX_FRAMES_PER_RUN - 4 } : {}),
  });
  await emit({ event: "complete", run_id: runId, aborted: false });
}
