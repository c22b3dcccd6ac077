// Chat turns over HTTP, for the signed-in user (a browser session, or a PAT with `aps:dev`;
// cookie writes pass createApp's CSRF guard):
//   POST /api/v1/chat/conversations                    → 201 {id}
//   GET  /api/v1/chat/conversations[?cursor&limit]     → newest first, {items, next_cursor}
//   GET  /api/v1/chat/conversations/{id}[?after&limit] → the conversation, its messages, and
//                                                        how each of their turns ended
//   POST /api/v1/chat/conversations/{id}/attachments?name=<file name>
//        raw bytes, Content-Type the media type        → 201 {id, name, media_type, size_bytes}
//   POST /api/v1/chat/conversations/{id}/turns {text, attachments?: [id…]}
//                                                      → 202 {turn_id}; 409 while one runs
//   DELETE /api/v1/chat/conversations/{id}             → 200 {deleted: true}: its turns,
//                                                        messages and attachments (bytes and
//                                                        quota given back); its app windows close
//   DELETE /api/v1/chat/conversations/{id}/attachments/{aid}
//                                                      → 200 {deleted: true}, while unsent; 409
//                                                        once a message sent it
//   GET  /api/v1/chat/turns/{id}                       → the turn's status and usage
//   GET  /api/v1/chat/turns/{id}/events                → SSE, `id:` = frame seq; resume with
//                                                        Last-Event-ID or ?after=
//   POST /api/v1/chat/turns/{id}/cancel                → the turn once its end is recorded
// Another user's conversation or turn is 404, like one that does not exist.
import { nodeTransportOf } from "@anna-ai/app-core/http";
import { Hono } from "hono";
import { z } from "zod";
import {
  CHAT_ATTACHMENTS_PER_TURN_MAX,
  CHAT_ATTACHMENT_NAME_MAX_CHARS,
  attachmentView,
} from "../chat/chat-attachments.js";
import type { ChatDeps } from "../chat/chat-deps.js";
import {
  CONVERSATIONS_PAGE_DEFAULT,
  CONVERSATIONS_PAGE_MAX,
  MESSAGES_PAGE_DEFAULT,
  MESSAGES_PAGE_MAX,
  decodeCursor,
  type ConversationRow,
  type TurnRow,
} from "../chat/chat-store.js";
import { messageView } from "../chat/message-rows.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import type { User } from "../stores/types.js";

/** The longest user message a turn takes, in characters. */
export const CHAT_MAX_TEXT_CHARS = 32_000;
export const CHAT_TITLE_MAX_CHARS = 200;

const NewConversationBody = z.strictObject({
  title: z.string().trim().min(1).max(CHAT_TITLE_MAX_CHARS).optional(),
});

const NewTurnBody = z.strictObject({
  text: z
    .string({ error: "text is required: the user's message, as a string" })
    .trim()
    .min(1, "text is empty; send the user's message")
    .max(
      CHAT_MAX_TEXT_CHARS,
      `text is over ${CHAT_MAX_TEXT_CHARS} characters; send a shorter message`,
    ),
  attachments: z
    .array(z.string().min(1).max(80), {
      error: "attachments must be a list of attachment ids from the upload route",
    })
    .max(CHAT_ATTACHMENTS_PER_TURN_MAX, {
      error: `a message may carry at most ${CHAT_ATTACHMENTS_PER_TURN_MAX} attachments`,
    })
    .optional(),
});

/** The path of the upload route: raw bytes up to the attachment cap, not the JSON body cap. */
const ATTACHMENT_UPLOAD_PATH = /^\/api\/v1\/chat\/conversations\/[^/]+\/attachments$/;

export function isChatAttachmentUploadRoute(path: string): boolean {
  return ATTACHMENT_UPLOAD_PATH.test(path);
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The file name a client gave, as shown to the model and the user: no folders, no controls. */
function attachmentName(raw: string | undefined): string {
  const name =
    (raw ?? "")
      .split(/[\\/]/)
      .pop()
      // eslint-disable-next-line no-control-regex -- control characters are what is dropped.
      ?.replace(/[\u0000-\u001f\u007f]/g, "")
      .trim() ?? "";
  if (name === "" || name.length > CHAT_ATTACHMENT_NAME_MAX_CHARS) {
    throw new NexusError(
      "validation_failed",
      `name must be the file's name, 1 to ${CHAT_ATTACHMENT_NAME_MAX_CHARS} characters (?name=report.csv)`,
    );
  }
  return name;
}

/** The Content-Type without parameters; none (or a browser's empty type) is octet-stream. */
function attachmentMediaType(raw: string | undefined): string {
  const type = (raw ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "") return "application/octet-stream";
  if (!MEDIA_TYPE.test(type)) {
    throw new NexusError(
      "validation_failed",
      `Content-Type ${JSON.stringify(type.slice(0, 80))} is not a media type; send the file's, e.g. text/csv`,
    );
  }
  return type;
}

function chat(deps: AppDeps): ChatDeps {
  if (!deps.chat) throw new NexusError("unavailable", "chat is not enabled on this server");
  return deps.chat;
}

async function member(c: Ctx, deps: AppDeps): Promise<User> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  return p.user;
}

function conversationView(row: ConversationRow) {
  return { id: row.id, title: row.title, created_at: row.created_at, updated_at: row.updated_at };
}

function turnView(row: TurnRow) {
  return {
    turn_id: row.id,
    conversation_id: row.conversation_id,
    status: row.status,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message },
    usage: {
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      total_tokens: row.total_tokens,
    },
    steps: row.step_count,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** A non-negative whole number from a query or header, or 400 naming where it came from. */
function count(raw: string | undefined, what: string, fallback: number, max?: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new NexusError(
      "validation_failed",
      `${what} must be a whole number of 0 or more (got '${raw.slice(0, 40)}')`,
    );
  }
  const n = Number(raw);
  if (max !== undefined && (n < 1 || n > max)) {
    throw new NexusError("validation_failed", `${what} must be between 1 and ${max} (got ${n})`);
  }
  return n;
}

export function chatRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.post("/conversations", async (c) => {
    const user = await member(c, deps);
    const body = await readJson(c, NewConversationBody);
    const row = await chat(deps).service.createConversation(user, body.title ?? null);
    return c.json({ id: row.id, conversation: conversationView(row) }, 201);
  });

  app.get("/conversations", async (c) => {
    const user = await member(c, deps);
    const limit = count(
      c.req.query("limit"),
      "limit",
      CONVERSATIONS_PAGE_DEFAULT,
      CONVERSATIONS_PAGE_MAX,
    );
    const rawCursor = c.req.query("cursor");
    const cursor = rawCursor ? decodeCursor(rawCursor) : undefined;
    if (rawCursor && cursor === undefined) {
      throw new NexusError(
        "validation_failed",
        "cursor is not one this server gave; pass next_cursor from the previous page",
      );
    }
    const page = await chat(deps).service.store.conversations(user.id, {
      ...(cursor ? { cursor } : {}),
      limit,
    });
    return c.json({ items: page.items.map(conversationView), next_cursor: page.nextCursor });
  });

  app.get("/conversations/:id", async (c) => {
    const user = await member(c, deps);
    const { service } = chat(deps);
    const row = await service.conversation(user, c.req.param("id"));
    const after = count(c.req.query("after"), "after", 0);
    const limit = count(c.req.query("limit"), "limit", MESSAGES_PAGE_DEFAULT, MESSAGES_PAGE_MAX);
    const messages = await service.store.messages(row.id, after, limit + 1);
    const page = messages.slice(0, limit);
    const running = await service.store.runningTurn(row.id);
    // A page of messages shows parts of turns; how each ended (a cancelled turn may keep its
    // partial answer, a failed one its error) is not in the messages, so it comes beside them.
    const turns = await service.store.turnsOf(row.id, [...new Set(page.map((m) => m.turn_id))]);
    return c.json({
      ...conversationView(row),
      running_turn_id: running?.id ?? null,
      messages: page.map(messageView),
      turns: turns
        .sort((a, b) => a.started_at - b.started_at)
        .map((t) => ({
          turn_id: t.id,
          status: t.status,
          error: t.error_code === null ? null : { code: t.error_code, message: t.error_message },
        })),
      next_after: messages.length > limit ? (page.at(-1)?.seq ?? null) : null,
    });
  });

  app.post("/conversations/:id/turns", async (c) => {
    const user = await member(c, deps);
    const body = await readJson(c, NewTurnBody);
    const turnId = await chat(deps).service.startTurn(
      user,
      c.req.param("id"),
      body.text,
      body.attachments ?? [],
    );
    return c.json({ turn_id: turnId, events_url: `/api/v1/chat/turns/${turnId}/events` }, 202);
  });

  app.post("/conversations/:id/attachments", async (c) => {
    const user = await member(c, deps);
    const { service } = chat(deps);
    const conversation = await service.conversation(user, c.req.param("id"));
    const name = attachmentName(c.req.query("name"));
    const mediaType = attachmentMediaType(c.req.header("content-type"));
    const length = c.req.header("content-length");
    const row = await service.attachmentStore().upload({
      userId: user.id,
      conversationId: conversation.id,
      name,
      mediaType,
      declaredBytes: length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : undefined,
      body: c.req.raw.body as AsyncIterable<Uint8Array> | null,
    });
    return c.json(attachmentView(row), 201);
  });

  app.delete("/conversations/:id", async (c) => {
    const user = await member(c, deps);
    const id = c.req.param("id");
    await chat(deps).service.deleteConversation(user, id);
    await closeConversationWindows(deps, String(user.id), id);
    return c.json({ deleted: true });
  });

  app.delete("/conversations/:id/attachments/:attachmentId", async (c) => {
    const user = await member(c, deps);
    const { service } = chat(deps);
    const conversation = await service.conversation(user, c.req.param("id"));
    await service
      .attachmentStore()
      .removePending(user.id, conversation.id, c.req.param("attachmentId"));
    return c.json({ deleted: true });
  });

  app.get("/turns/:id", async (c) => {
    const user = await member(c, deps);
    return c.json(turnView(await chat(deps).service.turn(user, c.req.param("id"))));
  });

  app.post("/turns/:id/cancel", async (c) => {
    const user = await member(c, deps);
    return c.json(turnView(await chat(deps).service.cancel(user, c.req.param("id"))));
  });

  app.get("/turns/:id/events", async (c) => {
    const user = await member(c, deps);
    const { service, streams } = chat(deps);
    // EventSource sends Last-Event-ID on its own reconnects; `?after=` is for the first
    // connection of a client that already has frames. The header wins when both are present.
    const header = c.req.header("last-event-id");
    const after =
      header !== undefined && header !== ""
        ? count(header, "Last-Event-ID", 0)
        : count(c.req.query("after"), "after", 0);
    const reader = new AbortController();
    const frames = await service.events(user, c.req.param("id"), after, reader.signal);
    let client;
    try {
      // Per user: the route key bounds one person's open streams, the total bounds the server's.
      client = streams.open(`chat:${user.id}`, nodeTransportOf(c.env));
    } catch (err) {
      throw new NexusError("rate_limited", (err as Error).message, { cause: err, retryAfterS: 5 });
    }
    client.on("close", () => reader.abort());
    void (async () => {
      try {
        for await (const frame of frames) {
          client.write(
            `id: ${frame.seq}\nevent: ${frame.event.type}\ndata: ${JSON.stringify(frame.event)}\n\n`,
          );
        }
      } catch (err) {
        deps.logger.log("warn", "chat event stream failed", { error: String(err) });
      } finally {
        client.end();
      }
    })();
    return client.response;
  });

  return app;
}

/**
 * The app windows opened beside a deleted conversation close with it: no desk shows them any
 * more. The conversation is already gone, so a window that fails to close is logged, not fatal.
 */
async function closeConversationWindows(
  deps: AppDeps,
  userId: string,
  conversationId: string,
): Promise<void> {
  const dispatcher = deps.runtime?.dispatcher;
  if (!dispatcher) return;
  const windows = await dispatcher.listWindows(userId, conversationId);
  for (const win of windows) {
    const wid = String(win["window_uuid"]);
    await dispatcher.closeWindow(wid, "user", userId, String(win["app_id"])).catch((err: unknown) =>
      deps.logger.log("warn", "a deleted conversation's window did not close", {
        window_uuid: wid,
        error: String(err),
      }),
    );
  }
}
