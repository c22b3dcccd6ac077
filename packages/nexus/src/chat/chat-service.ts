// Chat turns on the server: a turn starts with the user's message in the database, then runs in
// the background (prompt → model → tools → … through @anna-ai/agent's runTurn) while its events
// go to the turn event log, where any number of SSE readers follow them and resume. The seams
// other parts fill are explicit: `toolsFor` (extra tools a user's turn may call) and `assemble`
// (the prompt: skills, mentions, apps, installed executas; turn-assembly.ts builds the server's). A turn still running when the server stops ends
// `failed` with a clear error, at stop or at the next start.
import { randomUUID } from "node:crypto";
import { runTurn, TurnEventLog } from "@anna-ai/agent";
import type {
  AgentTool,
  AssembledPrompt,
  ChatMessage,
  LlmGateway,
  TurnEvent,
  TurnFrame,
  TurnOutcome,
} from "@anna-ai/agent";
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import type { User } from "../stores/types.js";
import { ChatAttachments, attachmentsPrompt } from "./chat-attachments.js";
import { ChatStore } from "./chat-store.js";
import type { ConversationRow, TurnRow } from "./chat-store.js";

/** What the model is told when nothing more specific is assembled. */
export const DEFAULT_SYSTEM_PROMPT =
  "You are Anna, the assistant of this Anna server. Answer the user's messages plainly. " +
  "Use only the tools listed for this turn; when none fits, say what you cannot do instead of guessing.";
/** Model calls per turn. */
export const CHAT_MAX_STEPS = 8;
/** Messages of the conversation sent to the model at most (the latest ones). */
export const CHAT_MAX_HISTORY_MESSAGES = 200;
/** Turns this server runs at once, and per user: each holds a model stream and tools. */
export const CHAT_MAX_RUNNING_TURNS = 64;
export const CHAT_MAX_RUNNING_TURNS_PER_USER = 4;
/**
 * Frames one turn may store (the spec caps an agent run at 4,096 frames, line 8723; a turn
 * streams a delta per model chunk, so more room). Past it the turn is stopped and ends `failed`.
 */
export const CHAT_MAX_FRAMES_PER_TURN = 20_000;
/** How long a cancel waits for the turn to record its end before answering. */
const CANCEL_WAIT_MS = 10_000;
/** How often a cancel asked of another node looks whether the turn has ended. */
const CANCEL_POLL_MS = 100;
/**
 * How often a node says it still runs its turns, picks up cancels asked on other nodes, and
 * ends the turns of nodes that stopped saying so (D-nexus-167).
 */
export const CHAT_HEARTBEAT_MS = 2_000;
/** A running turn whose heartbeat is older than this belongs to a node that is gone. */
export const CHAT_TURN_STALE_MS = 15_000;

const SERVER_STOPPED = {
  code: "server_stopped",
  message:
    "the server stopped while this turn was running, so it did not finish; send your message again",
};

export type ToolsFor = (
  user: User,
  conversation: ConversationRow,
) => Promise<AgentTool[]> | AgentTool[];

export interface PromptInput {
  user: User;
  conversation: ConversationRow;
  turnId: string;
  system: string;
  /** The conversation's latest messages before this turn (this turn's message is `text`). */
  history: ChatMessage[];
  /** This turn's user message; the assembler puts it after `history`, once. */
  text: string;
  tools: AgentTool[];
  /** Aborts when the turn is cancelled or the server stops: assembly stops preparing then. */
  signal: AbortSignal;
}

export type PromptAssembler = (input: PromptInput) => Promise<AssembledPrompt> | AssembledPrompt;

/** The prompt with no skills, mentions or apps: the system prompt, the history, the tools. */
export const plainPrompt: PromptAssembler = (input) => ({
  system: input.system,
  messages: [...input.history, { role: "user", content: input.text }],
  tools: input.tools,
  activatedApps: [],
  notices: [],
});

export interface ChatServiceOptions {
  db: Kysely<Database>;
  gateway: LlmGateway;
  clock: Clock;
  logger: Logger;
  /** The tools of a user's turn; default none. */
  toolsFor?: ToolsFor;
  /** Builds the prompt; default `plainPrompt`. */
  assemble?: PromptAssembler;
  systemPrompt?: string;
  maxSteps?: number;
  maxHistoryMessages?: number;
  maxRunningTurns?: number;
  maxRunningTurnsPerUser?: number;
  /** A tool's time limit when it names none. */
  defaultToolTimeoutMs?: number;
  /** How often SSE readers look at the database for frames another server wrote. */
  pollMs?: number;
  maxFramesPerTurn?: number;
  /** Files attached to conversations; without it a turn that names attachments is refused. */
  attachments?: ChatAttachments;
  /**
   * This node's id, recorded on the turns it runs: unique among the nodes sharing the database
   * and the same across restarts (anna-nexus start: ANNA_NODE_ID or `<data>/node-id`). Default:
   * one per process.
   */
  node?: string;
  /** The heartbeat period (default CHAT_HEARTBEAT_MS) and the age past which a turn is abandoned. */
  heartbeatMs?: number;
  staleAfterMs?: number;
}

interface RunningTurn {
  userId: number;
  controller: AbortController;
  done: Promise<void>;
}

export class ChatService {
  readonly store: ChatStore;
  readonly log: TurnEventLog;
  /** The id this node records on the turns it runs. */
  readonly node: string;
  private readonly running = new Map<string, RunningTurn>();
  private stopping = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private beating: Promise<unknown> | undefined;

  constructor(private readonly options: ChatServiceOptions) {
    this.store = new ChatStore(options.db, () => options.clock.now());
    this.log = new TurnEventLog(this.store, options.pollMs ? { pollMs: options.pollMs } : {});
    this.node = options.node ?? `process-${randomUUID()}`;
  }

  async createConversation(user: User, title: string | null): Promise<ConversationRow> {
    return this.store.createConversation(user.id, randomUUID(), title, this.options.clock.now());
  }

  /** The user's conversation, or 404 (another user's looks the same as none). */
  async conversation(user: User, id: string): Promise<ConversationRow> {
    const found = await this.store.conversation(user.id, id);
    if (!found) throw new NexusError("not_found", `you have no conversation '${id.slice(0, 80)}'`);
    return found;
  }

  /**
   * Deletes the user's conversation with its turns, messages, frames and attachments (their
   * bytes too, and their quota given back), in one transaction. A running turn is cancelled
   * first; one that will not end in time is a 409, so nothing is deleted under it.
   */
  async deleteConversation(user: User, id: string): Promise<void> {
    const conversation = await this.conversation(user, id);
    const running = await this.store.runningTurn(conversation.id);
    if (running) {
      const ended = await this.cancel(user, running.id);
      if (ended.status === "running") {
        throw new NexusError(
          "turn_running",
          "this conversation's turn did not stop in time; cancel it, then delete the conversation again",
          { details: { turn_id: running.id } },
        );
      }
    }
    const blobKeys = await this.options.db.transaction().execute(async (trx) => {
      const keys = await ChatAttachments.releaseAll(
        trx,
        user.id,
        conversation.id,
        this.options.clock.now(),
      );
      await ChatStore.deleteConversation(trx, conversation.id);
      return keys;
    });
    if (blobKeys.length > 0) await this.attachmentStore().dropBlobs(blobKeys);
  }

  async turn(user: User, id: string): Promise<TurnRow> {
    const found = await this.store.turn(user.id, id);
    if (!found) throw new NexusError("not_found", `you have no turn '${id.slice(0, 80)}'`);
    return found;
  }

  /** Records the user's message and starts the turn in the background; resolves with its id. */
  async startTurn(
    user: User,
    conversationId: string,
    text: string,
    attachmentIds: readonly string[] = [],
  ): Promise<string> {
    if (this.stopping)
      throw new NexusError(
        "unavailable",
        "the server is stopping; send the message again in a moment",
      );
    const conversation = await this.conversation(user, conversationId);
    const attachments = await this.attachmentsFor(user, conversation.id, attachmentIds);
    this.checkCapacity(user);
    const turnId = randomUUID();
    const started = await this.store.startTurn({
      conversation,
      turnId,
      text,
      attachments,
      runner: this.node,
      now: this.options.clock.now(),
    });
    if (started === "busy") {
      const other = await this.store.runningTurn(conversation.id);
      throw new NexusError(
        "turn_running",
        "this conversation has a turn running; wait for it to finish or cancel it first",
        { details: other ? { turn_id: other.id } : {} },
      );
    }
    const controller = new AbortController();
    const entry: RunningTurn = { userId: user.id, controller, done: Promise.resolve() };
    this.running.set(turnId, entry);
    entry.done = this.run(user, conversation, turnId, text, controller.signal)
      .catch((err: unknown) =>
        this.options.logger.log("error", "chat turn could not record its end", {
          turn_id: turnId,
          error: String(err),
        }),
      )
      .finally(() => {
        this.running.delete(turnId);
        this.log.forget(turnId);
      });
    return turnId;
  }

  /** Turns running in this process now, and the most it runs at once (metrics). */
  get load(): { running: number; max: number } {
    return {
      running: this.running.size,
      max: this.options.maxRunningTurns ?? CHAT_MAX_RUNNING_TURNS,
    };
  }

  /** Cancels a running turn; resolves with the turn's status once its end is recorded. */
  async cancel(user: User, turnId: string): Promise<TurnRow> {
    const turn = await this.turn(user, turnId);
    if (turn.status !== "running") return turn;
    const local = this.running.get(turnId);
    if (local) {
      local.controller.abort(new Error("cancelled by the user"));
      await Promise.race([local.done, new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref())]);
    } else if (this.runsElsewhere(turn)) {
      // Its node stops it on its next heartbeat, recording what the turn had done.
      if (await this.store.requestCancel(turnId, this.options.clock.now())) {
        await this.untilEnded(user, turnId);
      }
    } else {
      // Left running by a node that is gone: end it here.
      await this.endElsewhere(turn, "cancelled", undefined);
    }
    return this.turn(user, turnId);
  }

  /** Every frame of the user's turn after `afterSeq`, then the live ones, until it finishes. */
  async events(user: User, turnId: string, afterSeq: number, signal: AbortSignal) {
    await this.turn(user, turnId);
    return this.log.read(turnId, afterSeq, signal);
  }

  /**
   * Marks as failed the turns this node's previous run left `running`, and those of nodes that
   * are gone (see `abandonedTurns`), each with its `turn.finished` frame so their streams end.
   * Call once at start, before serving; the turns other live nodes run are left alone.
   */
  async recoverInterrupted(): Promise<number> {
    return this.endAbandoned(this.node);
  }

  /**
   * Starts the heartbeat (every `heartbeatMs`): it keeps this node's turns fresh, stops the ones
   * cancelled on other nodes, and ends the turns of nodes that stopped beating. `close` stops it.
   */
  startHeartbeat(): void {
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => {
      this.beating ??= this.heartbeat()
        .catch((err: unknown) =>
          this.options.logger.log("warn", "chat heartbeat failed; retrying on the next one", {
            error: String(err),
          }),
        )
        .finally(() => (this.beating = undefined));
    }, this.options.heartbeatMs ?? CHAT_HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  /** One heartbeat (the timer's work; tests call it directly). Returns the turns it ended. */
  async heartbeat(): Promise<number> {
    const cancelled = await this.store.heartbeat(this.node, this.options.clock.now());
    for (const id of cancelled) {
      this.running.get(id)?.controller.abort(new Error("cancelled by the user"));
    }
    return this.endAbandoned();
  }

  /** Stops every running turn (they end `failed`, saying the server stopped) and waits. */
  async close(): Promise<void> {
    this.stopping = true;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    const all = [...this.running.values()];
    for (const t of all) t.controller.abort(new Error("the server is stopping"));
    await Promise.all(all.map((t) => t.done));
    await this.beating;
  }

  private async endAbandoned(mine?: string): Promise<number> {
    const staleBefore =
      this.options.clock.now() - (this.options.staleAfterMs ?? CHAT_TURN_STALE_MS);
    let count = 0;
    const tried = new Set<string>();
    for (;;) {
      const left = (await this.store.abandonedTurns(staleBefore, 100, mine)).filter(
        (t) => !this.running.has(t.id) && !tried.has(t.id),
      );
      if (left.length === 0) return count;
      for (const turn of left) {
        tried.add(turn.id);
        try {
          if (await this.endElsewhere(turn, "failed", SERVER_STOPPED)) count += 1;
        } catch (err) {
          // One turn that cannot be ended (its node came back and wrote the frame we would
          // write) must not stop the others, or the server's start.
          this.options.logger.log("warn", "could not end an abandoned chat turn", {
            turn_id: turn.id,
            runner: turn.runner,
            error: String(err),
          });
        }
      }
    }
  }

  /** Whether another live node runs the turn (its heartbeat is recent). */
  private runsElsewhere(turn: TurnRow): boolean {
    if (turn.runner === null || turn.runner === this.node || turn.heartbeat_at === null) {
      return false;
    }
    const stale = this.options.staleAfterMs ?? CHAT_TURN_STALE_MS;
    return Number(turn.heartbeat_at) >= this.options.clock.now() - stale;
  }

  /** Waits until the turn is no longer running, or CANCEL_WAIT_MS. */
  private async untilEnded(user: User, turnId: string): Promise<void> {
    const until = Date.now() + CANCEL_WAIT_MS;
    while (Date.now() < until) {
      if ((await this.turn(user, turnId)).status !== "running") return;
      await new Promise((r) => setTimeout(r, CANCEL_POLL_MS));
    }
  }

  /** Resolves when no turn is running (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((t) => t.done));
  }

  /** The attachments service, or 503 naming what the server lacks. */
  attachmentStore(): ChatAttachments {
    if (!this.options.attachments) {
      throw new NexusError(
        "unavailable",
        "this server keeps no chat attachments (it has no blob store); send the message without them",
      );
    }
    return this.options.attachments;
  }

  private async attachmentsFor(user: User, conversationId: string, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.attachmentStore().forTurn(user.id, conversationId, ids);
  }

  /** The system prompt, with the conversation's attachments when it has any. */
  private async systemFor(conversation: ConversationRow): Promise<string> {
    const base = this.options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
    const sent = (await this.options.attachments?.sent(conversation.id)) ?? [];
    return sent.length === 0 ? base : `${base}\n\n${attachmentsPrompt(sent)}`;
  }

  private checkCapacity(user: User): void {
    const max = this.options.maxRunningTurns ?? CHAT_MAX_RUNNING_TURNS;
    const perUser = this.options.maxRunningTurnsPerUser ?? CHAT_MAX_RUNNING_TURNS_PER_USER;
    if (this.running.size >= max) {
      throw new NexusError(
        "rate_limited",
        `this server is running ${this.running.size} turns, its limit; try again shortly`,
        {
          retryAfterS: 5,
        },
      );
    }
    const mine = [...this.running.values()].filter((t) => t.userId === user.id).length;
    if (mine >= perUser) {
      throw new NexusError(
        "rate_limited",
        `you have ${mine} turns running in other conversations, the most at once; wait for one to finish`,
        { retryAfterS: 5 },
      );
    }
  }

  private async run(
    user: User,
    conversation: ConversationRow,
    turnId: string,
    text: string,
    signal: AbortSignal,
  ): Promise<void> {
    const o = this.options;
    const writer = await this.log.writer(turnId);
    const maxFrames = o.maxFramesPerTurn ?? CHAT_MAX_FRAMES_PER_TURN;
    // The turn's own stop, for the frame cap; the caller's signal is cancel and server stop.
    const overflow = new AbortController();
    let frames = 0;
    const emit = async (event: TurnEvent): Promise<void> => {
      // The last frame is written with the turn's outcome, in one transaction (below).
      if (event.type === "turn.finished" || overflow.signal.aborted) return;
      // One place is kept for turn.finished.
      if (++frames >= maxFrames) {
        overflow.abort();
        return;
      }
      await writer.append(event);
    };
    let outcome: TurnOutcome;
    try {
      const tools = (await o.toolsFor?.(user, conversation)) ?? [];
      const history = await this.store.history(
        conversation.id,
        o.maxHistoryMessages ?? CHAT_MAX_HISTORY_MESSAGES,
      );
      // startTurn stored this turn's message last; the assembler adds it back as `text`, so the
      // model sees it once.
      if (history.at(-1)?.role === "user") history.pop();
      const prompt = await (o.assemble ?? plainPrompt)({
        user,
        conversation,
        turnId,
        system: await this.systemFor(conversation),
        history,
        text,
        tools,
        signal,
      });
      outcome = await runTurn({
        turnId,
        conversationId: conversation.id,
        userId: String(user.id),
        prompt,
        gateway: o.gateway,
        maxSteps: o.maxSteps ?? CHAT_MAX_STEPS,
        signal: AbortSignal.any([signal, overflow.signal]),
        ...(o.defaultToolTimeoutMs ? { defaultToolTimeoutMs: o.defaultToolTimeoutMs } : {}),
        clock: () => o.clock.now(),
        emit,
      });
    } catch (err) {
      if (!signal.aborted) {
        o.logger.log("error", "chat turn failed before or outside the model loop", {
          turn_id: turnId,
          error: String(err),
        });
      }
      outcome = signal.aborted
        ? cancelledBeforeModel()
        : {
            status: "failed",
            usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
            steps: 0,
            messages: [],
            error: {
              code: "internal",
              message: `the turn could not run: ${(err as Error).message ?? String(err)}`,
            },
          };
    }
    if (outcome.status === "cancelled" && overflow.signal.aborted) {
      outcome = {
        ...outcome,
        status: "failed",
        error: {
          code: "frame_limit",
          message: `the turn streamed ${maxFrames} events, the most one turn may; it was stopped there (ask for a shorter answer)`,
        },
      };
    } else if (this.stopping && outcome.status === "cancelled") {
      outcome = { ...outcome, status: "failed", error: SERVER_STOPPED };
    }
    await writer.appendWith(finishedEvent(outcome), (frame) =>
      this.recordEnd({ id: turnId, conversation_id: conversation.id }, outcome, frame),
    );
  }

  /** Ends a turn no local runner holds, with its `turn.finished` frame; false if it had ended. */
  private async endElsewhere(
    turn: TurnRow,
    status: "cancelled" | "failed",
    error: TurnOutcome["error"],
  ): Promise<boolean> {
    const outcome: TurnOutcome = {
      status,
      usage: {
        inputTokens: turn.input_tokens,
        outputTokens: turn.output_tokens,
        totalTokens: turn.total_tokens,
      },
      steps: turn.step_count,
      messages: [],
      ...(error ? { error } : {}),
    };
    const writer = await this.log.writer(turn.id);
    try {
      await writer.appendWith(finishedEvent(outcome), (frame) =>
        this.recordEnd(turn, outcome, frame),
      );
      return true;
    } catch (err) {
      if (err instanceof TurnAlreadyEnded) return false;
      throw err;
    } finally {
      this.log.forget(turn.id);
    }
  }

  private async recordEnd(
    turn: Pick<TurnRow, "id" | "conversation_id">,
    outcome: TurnOutcome,
    frame: TurnFrame,
  ): Promise<void> {
    const recorded = await this.store.finishTurn({
      turn,
      outcome,
      frame,
      now: this.options.clock.now(),
    });
    if (!recorded) throw new TurnAlreadyEnded(turn.id);
  }
}

class TurnAlreadyEnded extends Error {
  constructor(turnId: string) {
    super(`turn ${turnId} had already ended (another server or a cancel recorded it)`);
    this.name = "TurnAlreadyEnded";
  }
}

/** A turn cancelled while its prompt was assembled: no model call was made. */
function cancelledBeforeModel(): TurnOutcome {
  return {
    status: "cancelled",
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    steps: 0,
    messages: [],
  };
}

function finishedEvent(outcome: TurnOutcome): Extract<TurnEvent, { type: "turn.finished" }> {
  return {
    type: "turn.finished",
    status: outcome.status,
    usage: outcome.usage,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}
