// Files attached to chat conversations: the bytes in the server's blob store under
// `chat-attachments/<user>/<conversation>/<id>`, counted against the user's APS storage quota
// (the same `storage_usage` row KV, files and host uploads write), a `chat_attachments` row each.
// An upload waits in the composer until a turn sends it; a turn may send only the caller's
// pending attachments of that conversation, and doc_read/sheet_read then read the sent ones.
import { randomUUID } from "node:crypto";
import type { Attachment, AttachmentLookup } from "@anna-ai/agent";
import { STORAGE_QUOTA_BYTES } from "@anna-ai/executa-host/storage";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { ChatAttachmentsTable } from "../db/schema-chat.js";
import { addUsage, lockUsage } from "../storage/sql-usage.js";

export type AttachmentRow = Selectable<ChatAttachmentsTable>;

/** The largest attachment (what doc_read and sheet_read parse at most). */
export const CHAT_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
/** Attachments one turn sends at most, and that may wait unsent in one conversation. */
export const CHAT_ATTACHMENTS_PER_TURN_MAX = 10;
export const CHAT_PENDING_ATTACHMENTS_MAX = 20;
/** Attachments the prompt lists (the newest); older ones stay readable by id. */
export const CHAT_PROMPT_ATTACHMENTS_MAX = 50;
export const CHAT_ATTACHMENT_NAME_MAX_CHARS = 255;

export interface ChatAttachmentLimits {
  maxBytes: number;
  perTurnMax: number;
  pendingMax: number;
  quotaBytes: number;
}

export const DEFAULT_CHAT_ATTACHMENT_LIMITS: ChatAttachmentLimits = {
  maxBytes: CHAT_ATTACHMENT_MAX_BYTES,
  perTurnMax: CHAT_ATTACHMENTS_PER_TURN_MAX,
  pendingMax: CHAT_PENDING_ATTACHMENTS_MAX,
  quotaBytes: STORAGE_QUOTA_BYTES,
};

export interface UploadInput {
  userId: number;
  conversationId: string;
  name: string;
  mediaType: string;
  /** From Content-Length when the client sent one: checked before a byte is read. */
  declaredBytes: number | undefined;
  body: AsyncIterable<Uint8Array> | null;
}

/** An attachment as the API and the user message show it. */
export interface AttachmentView {
  id: string;
  name: string;
  media_type: string;
  size_bytes: number;
}

export function attachmentView(row: AttachmentRow): AttachmentView {
  return {
    id: row.id,
    name: row.name,
    media_type: row.media_type,
    size_bytes: Number(row.size_bytes),
  };
}

export class ChatAttachments {
  readonly limits: ChatAttachmentLimits;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    private readonly clock: () => number,
    limits: Partial<ChatAttachmentLimits> = {},
  ) {
    this.limits = { ...DEFAULT_CHAT_ATTACHMENT_LIMITS, ...limits };
  }

  /** Stores the bytes, then the row and the quota in one transaction (the blob is dropped if it fails). */
  async upload(input: UploadInput): Promise<AttachmentRow> {
    const { maxBytes, pendingMax } = this.limits;
    if (input.declaredBytes !== undefined && input.declaredBytes > maxBytes) {
      throw tooLarge(input.declaredBytes, maxBytes);
    }
    const pending = await this.db
      .selectFrom("chat_attachments")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("conversation_id", "=", input.conversationId)
      .where("turn_id", "is", null)
      .executeTakeFirst();
    if (Number(pending?.n ?? 0) >= pendingMax) {
      throw new NexusError(
        "rate_limited",
        `this conversation has ${pendingMax} attachments waiting to be sent, the most; send a message with them or remove some`,
        { retryAfterS: 1 },
      );
    }
    await this.checkQuota(String(input.userId), input.declaredBytes ?? 0);
    const id = randomUUID();
    const key = `chat-attachments/${input.userId}/${input.conversationId}/${id}`;
    const put = await this.blobs.put(
      key,
      input.mediaType,
      input.body,
      maxBytes,
      input.declaredBytes,
    );
    if (!put.ok) throw tooLarge(undefined, maxBytes, put.message);
    if (put.head.sizeBytes === 0) {
      await this.blobs.delete(key);
      throw new NexusError("validation_failed", "the attachment is empty; send the file's bytes");
    }
    const row: AttachmentRow = {
      id,
      conversation_id: input.conversationId,
      user_id: input.userId,
      turn_id: null,
      name: input.name,
      media_type: input.mediaType,
      size_bytes: put.head.sizeBytes,
      blob_key: key,
      created_at: this.clock(),
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        const usage = await lockUsage(trx, String(input.userId), row.created_at);
        if (usage.bytes_used + row.size_bytes > this.limits.quotaBytes) {
          throw overQuota(usage.bytes_used, row.size_bytes, this.limits.quotaBytes);
        }
        await trx.insertInto("chat_attachments").values(row).execute();
        await addUsage(trx, String(input.userId), row.size_bytes, 1);
      });
    } catch (err) {
      await this.blobs.delete(key);
      throw err;
    }
    return row;
  }

  /**
   * The attachments a turn sends, checked: each the caller's, of this conversation, not yet
   * sent. Anything else is a 400 naming the id, so a client sees which chip is wrong.
   */
  async forTurn(userId: number, conversationId: string, ids: readonly string[]) {
    if (ids.length === 0) return [];
    if (ids.length > this.limits.perTurnMax) {
      throw new NexusError(
        "validation_failed",
        `a message may carry at most ${this.limits.perTurnMax} attachments (got ${ids.length})`,
      );
    }
    if (new Set(ids).size !== ids.length) {
      throw new NexusError("validation_failed", "attachments lists an id twice; list each once");
    }
    const rows = await this.db
      .selectFrom("chat_attachments")
      .selectAll()
      .where("id", "in", [...ids])
      .execute();
    return ids.map((id) => {
      const row = rows.find((r) => r.id === id);
      if (row === undefined || row.user_id !== userId || row.conversation_id !== conversationId) {
        throw new NexusError(
          "validation_failed",
          `attachment ${JSON.stringify(id.slice(0, 80))} is not one you uploaded to this conversation; upload it to POST /api/v1/chat/conversations/${conversationId}/attachments first`,
        );
      }
      if (row.turn_id !== null) {
        throw new NexusError(
          "validation_failed",
          `attachment ${JSON.stringify(id)} was already sent with an earlier message; the model can still read it, so leave it out`,
        );
      }
      return row;
    });
  }

  /**
   * Removes one attachment still waiting in the composer: its row and its quota in one
   * transaction, then its bytes. A sent one stays with its message (409); another user's, or
   * another conversation's, is 404 like one that does not exist.
   */
  async removePending(userId: number, conversationId: string, id: string): Promise<void> {
    const row = await this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom("chat_attachments")
        .selectAll()
        .where("id", "=", id)
        .where("conversation_id", "=", conversationId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (found === undefined) {
        throw new NexusError(
          "not_found",
          `this conversation has no attachment ${JSON.stringify(id.slice(0, 80))} of yours`,
        );
      }
      if (found.turn_id !== null) {
        throw new NexusError(
          "attachment_sent",
          `attachment ${JSON.stringify(id)} was sent with a message and stays with it; delete the conversation to remove it`,
        );
      }
      await trx.deleteFrom("chat_attachments").where("id", "=", id).execute();
      await lockUsage(trx, String(userId), this.clock());
      await addUsage(trx, String(userId), -Number(found.size_bytes), -1);
      return found;
    });
    await this.blobs.delete(row.blob_key);
  }

  /**
   * Inside a conversation's delete transaction: its attachments' rows go and the user's quota
   * gets their bytes back. Answers the blob keys, to delete once the transaction committed (a
   * rollback must not lose bytes a row still names).
   */
  static async releaseAll(
    trx: Transaction<Database>,
    userId: number,
    conversationId: string,
    now: number,
  ): Promise<string[]> {
    const rows = await trx
      .selectFrom("chat_attachments")
      .select(["blob_key", "size_bytes"])
      .where("conversation_id", "=", conversationId)
      .execute();
    if (rows.length === 0) return [];
    await trx
      .deleteFrom("chat_attachments")
      .where("conversation_id", "=", conversationId)
      .execute();
    const bytes = rows.reduce((sum, r) => sum + Number(r.size_bytes), 0);
    await lockUsage(trx, String(userId), now);
    await addUsage(trx, String(userId), -bytes, -rows.length);
    return rows.map((r) => r.blob_key);
  }

  /** Deletes bytes whose rows are gone. */
  async dropBlobs(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.blobs.delete(key);
  }

  /** The conversation's sent attachments the prompt lists, oldest first. */
  async sent(conversationId: string): Promise<AttachmentRow[]> {
    const rows = await this.db
      .selectFrom("chat_attachments")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("turn_id", "is not", null)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(CHAT_PROMPT_ATTACHMENTS_MAX)
      .execute();
    return rows.reverse();
  }

  /** doc_read's and sheet_read's hook: a sent attachment of the tool's user and conversation. */
  readonly lookup: AttachmentLookup = async (id, ctx) => {
    const row = await this.db
      .selectFrom("chat_attachments")
      .selectAll()
      .where("id", "=", id)
      .where("conversation_id", "=", ctx.conversationId)
      .where("user_id", "=", Number(ctx.userId))
      .where("turn_id", "is not", null)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const bytes = await this.read(row, ctx.signal);
    return bytes === undefined
      ? undefined
      : ({ name: row.name, mediaType: row.media_type, bytes } satisfies Attachment);
  };

  private async read(row: AttachmentRow, signal: AbortSignal): Promise<Uint8Array | undefined> {
    const found = await this.blobs.read(row.blob_key);
    if (found === undefined) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of found.stream) {
      signal.throwIfAborted();
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk);
      total += buf.byteLength;
      // Stored under the cap; a bigger object is not ours to hold in memory.
      if (total > this.limits.maxBytes) throw tooLarge(total, this.limits.maxBytes);
      chunks.push(buf);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  private async checkQuota(userId: string, addBytes: number): Promise<void> {
    const row = await this.db
      .selectFrom("storage_usage")
      .select("bytes_used")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    const used = Number(row?.bytes_used ?? 0);
    if (used + addBytes > this.limits.quotaBytes) {
      throw overQuota(used, addBytes, this.limits.quotaBytes);
    }
  }
}

/** The system prompt's list of the conversation's attachments, so the model knows their ids. */
export function attachmentsPrompt(rows: readonly AttachmentRow[]): string {
  if (rows.length === 0) return "";
  const lines = rows.map(
    (r) =>
      `- ${JSON.stringify(r.name)} (${r.media_type}, ${Number(r.size_bytes)} bytes), attachment_id: ${r.id}`,
  );
  return [
    "The user attached these files to this conversation. Read documents with doc_read and " +
      "spreadsheets (CSV, TSV, XLSX) with sheet_read, passing the attachment_id:",
    ...lines,
  ].join("\n");
}

function tooLarge(got: number | undefined, max: number, detail?: string): NexusError {
  const size = got === undefined ? "over" : `${got} bytes,`;
  return new NexusError(
    "payload_too_large",
    `the attachment is ${size} more than the ${max}-byte limit${detail ? ` (${detail})` : ""}; attach a smaller file`,
  );
}

function overQuota(used: number, add: number, quota: number): NexusError {
  return new NexusError(
    "quota_exceeded",
    `storing ${add} more bytes would pass your ${quota}-byte storage quota (${used} used); delete files or ask the operator for more`,
  );
}
