// Conversations, messages, turns and turn frames on SQL (both dialects). Every read is scoped to
// the user; every change that must survive a crash together is one transaction: a turn starts
// with its user message, and ends with its messages, its outcome and its last frame.
import type {
  ChatMessage,
  TurnEvent,
  TurnFrame,
  TurnFrameStore,
  TurnOutcome,
} from "@anna-ai/agent";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Database } from "../db/schema.js";
import type {
  ChatConversationsTable,
  ChatMessagesTable,
  ChatTurnsTable,
} from "../db/schema-chat.js";
import { uniqueViolation } from "../stores/sql-stores.js";
import { NexusError } from "../core/errors.js";
import { attachmentView, type AttachmentRow } from "./chat-attachments.js";
import { messageColumns, messageOf, userMessageColumns } from "./message-rows.js";

export type ConversationRow = Selectable<ChatConversationsTable>;
export type TurnRow = Selectable<ChatTurnsTable>;
export type MessageRow = Selectable<ChatMessagesTable>;

/** Conversations per page unless asked, and at most. */
export const CONVERSATIONS_PAGE_DEFAULT = 20;
export const CONVERSATIONS_PAGE_MAX = 100;
/** Messages per page of a conversation unless asked, and at most. */
export const MESSAGES_PAGE_DEFAULT = 200;
export const MESSAGES_PAGE_MAX = 500;
/** A conversation's title is its first message, cut to this many characters. */
export const TITLE_MAX_CHARS = 80;

export interface ConversationPage {
  items: ConversationRow[];
  /** Pass as `cursor` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

export class ChatStore implements TurnFrameStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number,
  ) {}

  async createConversation(
    userId: number,
    id: string,
    title: string | null,
    now: number,
  ): Promise<ConversationRow> {
    const row = { id, user_id: userId, title, created_at: now, updated_at: now };
    await this.db.insertInto("chat_conversations").values(row).execute();
    return row;
  }

  async conversation(userId: number, id: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom("chat_conversations")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  /** Newest first by (created_at, id); the cursor is the last row's pair. */
  async conversations(
    userId: number,
    page: { cursor?: { createdAt: number; id: string }; limit: number },
  ): Promise<ConversationPage> {
    let q = this.db
      .selectFrom("chat_conversations")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit + 1);
    const c = page.cursor;
    if (c !== undefined) {
      q = q.where((eb) =>
        eb.or([
          eb("created_at", "<", c.createdAt),
          eb.and([eb("created_at", "=", c.createdAt), eb("id", "<", c.id)]),
        ]),
      );
    }
    const rows = await q.execute();
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    return {
      items,
      nextCursor: rows.length > page.limit && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  /**
   * Inside a delete transaction: the conversation's turn frames, messages, turns and the
   * conversation itself, children first (no reliance on the dialect's foreign-key cascades).
   * Its attachments go before this (ChatAttachments.releaseAll), as their quota does.
   */
  static async deleteConversation(trx: Transaction<Database>, id: string): Promise<void> {
    const turns = trx.selectFrom("chat_turns").select("id").where("conversation_id", "=", id);
    await trx.deleteFrom("chat_turn_events").where("turn_id", "in", turns).execute();
    await trx.deleteFrom("chat_messages").where("conversation_id", "=", id).execute();
    await trx.deleteFrom("chat_turns").where("conversation_id", "=", id).execute();
    await trx.deleteFrom("chat_conversations").where("id", "=", id).execute();
  }

  async messages(conversationId: string, afterSeq: number, limit: number): Promise<MessageRow[]> {
    return this.db
      .selectFrom("chat_messages")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("seq", ">", afterSeq)
      .orderBy("seq")
      .limit(limit)
      .execute();
  }

  /**
   * The latest `max` messages as the model sees them, starting at a user message so no tool
   * result is left without the call it answers.
   */
  async history(conversationId: string, max: number): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom("chat_messages")
      .select(["role", "content", "tool_calls"])
      .where("conversation_id", "=", conversationId)
      .orderBy("seq", "desc")
      .limit(max)
      .execute();
    rows.reverse();
    const firstUser = rows.findIndex((r) => r.role === "user");
    return firstUser < 0 ? [] : rows.slice(firstUser).map(messageOf);
  }

  async turn(userId: number, turnId: string): Promise<TurnRow | undefined> {
    return this.db
      .selectFrom("chat_turns")
      .selectAll()
      .where("id", "=", turnId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  /** The conversation's turns of these ids (those of one page of messages), in no order. */
  async turnsOf(conversationId: string, turnIds: readonly string[]): Promise<TurnRow[]> {
    if (turnIds.length === 0) return [];
    return this.db
      .selectFrom("chat_turns")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("id", "in", [...turnIds])
      .execute();
  }

  async runningTurn(conversationId: string): Promise<TurnRow | undefined> {
    return this.db
      .selectFrom("chat_turns")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("status", "=", "running")
      .executeTakeFirst();
  }

  /**
   * Starts a turn with its user message, or returns `busy` when the conversation has a running
   * turn (the partial unique index decides, so two servers cannot both start one).
   */
  async startTurn(input: {
    conversation: ConversationRow;
    turnId: string;
    text: string;
    /** Checked by ChatAttachments.forTurn; marked sent with this turn, shown on its message. */
    attachments?: readonly AttachmentRow[];
    /** The id of the node that runs it (ChatService's `node`). */
    runner?: string;
    now: number;
  }): Promise<"started" | "busy"> {
    const { conversation, turnId, text, now } = input;
    const attachments = input.attachments ?? [];
    try {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .insertInto("chat_turns")
          .values({
            id: turnId,
            conversation_id: conversation.id,
            user_id: conversation.user_id,
            status: "running",
            error_code: null,
            error_message: null,
            started_at: now,
            finished_at: null,
            runner: input.runner ?? null,
            heartbeat_at: now,
          })
          .execute();
        const seq = (await lastMessageSeq(tx, conversation.id)) + 1;
        await tx
          .insertInto("chat_messages")
          .values({
            conversation_id: conversation.id,
            turn_id: turnId,
            seq,
            ...userMessageColumns(text, attachments.map(attachmentView)),
            created_at: now,
          })
          .execute();
        if (attachments.length > 0) {
          const marked = await tx
            .updateTable("chat_attachments")
            .set({ turn_id: turnId })
            .where(
              "id",
              "in",
              attachments.map((a) => a.id),
            )
            .where("turn_id", "is", null)
            .executeTakeFirst();
          // Another turn sent one of them since forTurn looked: this one starts nothing.
          if (Number(marked.numUpdatedRows) !== attachments.length) {
            throw new NexusError(
              "validation_failed",
              "an attachment of this message was just sent with another one; leave it out",
            );
          }
        }
        await tx
          .updateTable("chat_conversations")
          .set({
            updated_at: now,
            ...(conversation.title === null ? { title: titleFrom(text) } : {}),
          })
          .where("id", "=", conversation.id)
          .execute();
      });
      return "started";
    } catch (err) {
      if (uniqueViolation(err) !== undefined && (await this.runningTurn(conversation.id))) {
        return "busy";
      }
      throw err;
    }
  }

  /**
   * Records a turn's end: its messages, its outcome and its `turn.finished` frame. Returns false
   * (and writes nothing) when the turn is no longer running, e.g. another server marked it.
   */
  async finishTurn(input: {
    turn: Pick<TurnRow, "id" | "conversation_id">;
    outcome: Pick<TurnOutcome, "status" | "usage" | "steps" | "error" | "messages">;
    frame: TurnFrame;
    now: number;
  }): Promise<boolean> {
    const { turn, outcome, frame, now } = input;
    return this.db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable("chat_turns")
        .set({
          status: outcome.status,
          error_code: outcome.error?.code ?? null,
          error_message: outcome.error?.message ?? null,
          input_tokens: outcome.usage.inputTokens,
          output_tokens: outcome.usage.outputTokens,
          total_tokens: outcome.usage.totalTokens,
          step_count: outcome.steps,
          finished_at: now,
        })
        .where("id", "=", turn.id)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      let seq = await lastMessageSeq(tx, turn.conversation_id);
      for (const message of outcome.messages) {
        seq += 1;
        await tx
          .insertInto("chat_messages")
          .values({
            conversation_id: turn.conversation_id,
            turn_id: turn.id,
            seq,
            ...messageColumns(message),
            created_at: now,
          })
          .execute();
      }
      await tx
        .insertInto("chat_turn_events")
        .values({
          turn_id: turn.id,
          seq: frame.seq,
          frame: JSON.stringify(frame.event),
          created_at: now,
        })
        .execute();
      await tx
        .updateTable("chat_conversations")
        .set({ updated_at: now })
        .where("id", "=", turn.conversation_id)
        .execute();
      return true;
    });
  }

  /**
   * Running turns whose node is gone, oldest first: no runner recorded (rows from before 0018),
   * no heartbeat since `staleBefore`, or, when `mine` is given, run by this node's id (a node
   * that just started runs none yet, so those are its previous life's).
   */
  async abandonedTurns(staleBefore: number, limit: number, mine?: string): Promise<TurnRow[]> {
    return this.db
      .selectFrom("chat_turns")
      .selectAll()
      .where("status", "=", "running")
      .where((eb) =>
        eb.or([
          eb("runner", "is", null),
          eb("heartbeat_at", "is", null),
          eb("heartbeat_at", "<", staleBefore),
          ...(mine === undefined ? [] : [eb("runner", "=", mine)]),
        ]),
      )
      .orderBy("started_at")
      .limit(limit)
      .execute();
  }

  /**
   * Says that `runner` still runs its turns; returns the ones a cancel was asked for elsewhere.
   * Turns ended meanwhile are not touched (the status guard).
   */
  async heartbeat(runner: string, now: number): Promise<string[]> {
    const rows = await this.db
      .updateTable("chat_turns")
      .set({ heartbeat_at: now })
      .where("runner", "=", runner)
      .where("status", "=", "running")
      .returning(["id", "cancel_requested_at"])
      .execute();
    return rows.filter((r) => r.cancel_requested_at !== null).map((r) => r.id);
  }

  /** Asks the turn's runner to cancel it; false when the turn is no longer running. */
  async requestCancel(turnId: string, now: number): Promise<boolean> {
    const updated = await this.db
      .updateTable("chat_turns")
      .set({ cancel_requested_at: now })
      .where("id", "=", turnId)
      .where("status", "=", "running")
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  // TurnFrameStore: the frames of the event log.

  async append(turnId: string, frame: TurnFrame): Promise<void> {
    await this.db
      .insertInto("chat_turn_events")
      .values({
        turn_id: turnId,
        seq: frame.seq,
        frame: JSON.stringify(frame.event),
        created_at: this.clock(),
      })
      .execute();
  }

  async after(turnId: string, afterSeq: number, limit: number): Promise<TurnFrame[]> {
    const rows = await this.db
      .selectFrom("chat_turn_events")
      .select(["seq", "frame"])
      .where("turn_id", "=", turnId)
      .where("seq", ">", afterSeq)
      .orderBy("seq")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.seq), event: JSON.parse(r.frame) as TurnEvent }));
  }

  async lastSeq(turnId: string): Promise<number> {
    const row = await this.db
      .selectFrom("chat_turn_events")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("turn_id", "=", turnId)
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }
}

async function lastMessageSeq(db: Kysely<Database>, conversationId: string): Promise<number> {
  const row = await db
    .selectFrom("chat_messages")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .where("conversation_id", "=", conversationId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

function titleFrom(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 1)}…` : line;
}

export function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`, "utf8").toString("base64url");
}

/** The cursor's pair, or undefined when it is not one this server made. */
export function decodeCursor(cursor: string): { createdAt: number; id: string } | undefined {
  const raw = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^(\d{1,16}):([0-9a-f-]{36})$/.exec(raw);
  return m ? { createdAt: Number(m[1]), id: m[2] as string } : undefined;
}
