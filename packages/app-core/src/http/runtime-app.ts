// The production runtime wire the app's SDK talks to (Reference L6327), as a Hono application any
// server mounts: the rpc envelope, the windows REST API and the event stream. What differs between
// servers comes in as arguments: who a request acts for (the harness: its one developer; the
// platform: the session), how an rpc call is answered (the harness adds mocks, its panel and the
// recording), where a window's bundle is served from, and the stream limits.
import { FORM_FACTORS, type FormFactor } from "@anna-ai/app-schema";
import { Hono, type Context } from "hono";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import type { CallResult, HostApiDispatcher } from "../index.js";
import { errorAnswer, notFoundAnswer } from "./on-error.js";
import { errorResponse, jsonResponse } from "./json-response.js";
import { decodePathSegment } from "./path-segment.js";
import { jsonFields, readJsonBody } from "./read-json-body.js";
import { eventCursor, pipeRuntimeEvents, type RuntimeEventSource } from "./runtime-event-stream.js";
import { nodeTransportOf, SSE_HEADERS, SseStreams, type SseLimits } from "./sse-streams.js";
import { liveWindowLink, type WindowUrl } from "./window-link.js";
import { parseWindowPatch, windowsRest } from "./window-patch.js";

export const RUNTIME_API = "/api/v1/anna-apps/runtime";
export const RUNTIME_RPC_ROUTE = `${RUNTIME_API}/rpc`;
export const RUNTIME_WINDOWS_ROUTE = `${RUNTIME_API}/windows`;
export const RUNTIME_EVENTS_ROUTE = `${RUNTIME_API}/events/stream`;
/** A conversation id a window is opened under (a UUID, or a server's own id form). */
export const CONVERSATION_ID_MAX_CHARS = 200;

/** Who a REST or stream request acts for. */
export interface RuntimeCaller {
  userId: string;
  /**
   * The app the request is limited to. A server of many apps may leave it out where the request
   * names none: the windows list and the event stream then cover all the user's apps, an open
   * is refused (`invalid_arg`), and an rpc call is bound by its window token alone.
   */
  appId?: string;
}

/** One rpc envelope, checked, with the request's token and its abort signal. */
export interface RpcCall {
  /** The app the route serves (the caller's); the dispatcher refuses a token of another. */
  appId?: string;
  token: string | undefined;
  windowUuid: string;
  id: string;
  ns: string;
  method: string;
  args: unknown;
  signal: AbortSignal;
}

export interface RuntimeAppOptions {
  dispatcher: HostApiDispatcher;
  /** Who the windows REST and the event stream act for (the rpc envelope carries its token). */
  caller(c: Context): RuntimeCaller | Promise<RuntimeCaller>;
  /** Answers an rpc call; default `dispatcher.call`. */
  answerCall?(call: RpcCall): Promise<CallResult>;
  /** The URL a window's frame loads, with its token. */
  windowUrl: WindowUrl;
  /**
   * Where the event stream's events come from; default `dispatcher.events`. A sequenced bus
   * (events/event-log.ts) makes the stream resumable.
   */
  events?: RuntimeEventSource;
  /**
   * The open event streams, when the server has other stream routes sharing the caps (the
   * harness's panel stream) or ends them itself on close; default one of its own.
   */
  streams?: SseStreams;
  /** The limits of the default `streams`. */
  streamLimits?: Partial<SseLimits>;
  logger?: Logger;
}

export function createRuntimeApp(options: RuntimeAppOptions): Hono {
  const { dispatcher, caller, windowUrl } = options;
  const events = options.events ?? dispatcher.events;
  const logger = options.logger ?? NULL_LOGGER;
  const streams = options.streams ?? new SseStreams(logger, options.streamLimits);
  const answerCall =
    options.answerCall ??
    ((call: RpcCall) =>
      dispatcher.call(call.token, call.ns, call.method, call.args, {
        windowUuid: call.windowUuid,
        signal: call.signal,
        ...(call.appId === undefined ? {} : { appId: call.appId }),
      }));
  const app = new Hono();
  app.onError((error, c) => errorAnswer(error, logger, c.req.url));
  app.notFound((c) => notFoundAnswer(c.req.method, c.req.url));

  app.post(RUNTIME_RPC_ROUTE, async (c) => {
    const body = jsonFields(await readJsonBody(c.req.raw));
    const { id, window_uuid: wid, ns, method } = body;
    if (
      (typeof id !== "string" && typeof id !== "number") ||
      typeof wid !== "string" ||
      typeof ns !== "string" ||
      typeof method !== "string"
    ) {
      return errorResponse("invalid_arg", "the envelope needs id, window_uuid, ns and method");
    }
    // The route's app: a token of another app is refused by the dispatcher.
    const { appId } = await caller(c);
    const answer = await answerCall({
      appId,
      token: c.req.header("x-anna-app-token"),
      windowUuid: wid,
      id: String(id),
      ns,
      method,
      args: body.args ?? {},
      // Aborted when the client goes away before its answer (the adapter aborts the request).
      signal: c.req.raw.signal,
    });
    return jsonResponse(200, { id, ...answer });
  });

  app.get(RUNTIME_EVENTS_ROUTE, async (c) => {
    // HEAD runs this handler too: answer the headers without holding a stream open for nobody.
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: SSE_HEADERS });
    const { userId, appId } = await caller(c);
    // Counted per user: one person's tabs must not use up the streams of everyone on a server.
    const cursor = eventCursor(c.req.header("last-event-id"), c.req.query("after"));
    const client = streams.open(RUNTIME_EVENTS_ROUTE, nodeTransportOf(c.env), userId);
    pipeRuntimeEvents(events, client, { userId, appId, cursor }, logger);
    return client.response;
  });

  app.get(RUNTIME_WINDOWS_ROUTE, async (c) => {
    const { userId, appId } = await caller(c);
    // `?conversation_session_uuid=` lists one conversation's windows (L5991, hydrate); without
    // it, every live window of the caller.
    const conversation = c.req.query("conversation_session_uuid") || undefined;
    return jsonResponse(200, {
      windows: await dispatcher.listWindows(userId, conversation, appId),
    });
  });

  app.post(RUNTIME_WINDOWS_ROUTE, async (c) => {
    const { userId, appId } = await caller(c);
    const body = jsonFields(await readJsonBody(c.req.raw));
    const view = typeof body.view === "string" ? body.view : undefined;
    const formFactor = formFactorOf(body.form_factor);
    if (formFactor === null) return formFactorRefused(body.form_factor);
    const conversation = body.conversation_session_uuid ?? undefined;
    if (
      conversation !== undefined &&
      (typeof conversation !== "string" ||
        conversation.length === 0 ||
        conversation.length > CONVERSATION_ID_MAX_CHARS)
    ) {
      return errorResponse(
        "invalid_arg",
        `conversation_session_uuid must be the id of the conversation the window belongs to, a string of 1–${CONVERSATION_ID_MAX_CHARS} characters, or left out for a window of no conversation`,
      );
    }
    // entry_payload is any JSON (a string, a list…); no payload is not `{}`: a single-instance
    // re-open then keeps the window's entry_payload. The conversation scopes single-instance
    // (L6020): a page opening a view beside a conversation finds the window a turn opened there.
    const opened = await windowsRest(() =>
      dispatcher.openWindow(view, {
        userId,
        appId,
        ...(conversation === undefined ? {} : { conversationSessionUuid: conversation }),
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      }),
    );
    const wid = String(opened.window.window_uuid);
    const url = await windowUrl(wid, opened.token, {
      view: String(opened.window.view),
      ...(formFactor === undefined ? {} : { formFactor }),
    });
    return jsonResponse(201, { ...opened, url });
  });

  app.get(`${RUNTIME_WINDOWS_ROUTE}/*`, async (c) => {
    const wid = windowIdOf(c);
    if (wid === undefined) return c.notFound();
    const { userId, appId } = await caller(c);
    const formFactor = formFactorOf(c.req.query("form_factor"));
    if (formFactor === null) return formFactorRefused(c.req.query("form_factor"));
    const link = await liveWindowLink(dispatcher, { userId, appId }, wid, windowUrl, formFactor);
    if (link === undefined) return errorResponse("not_found", `no live window ${wid}`);
    return jsonResponse(200, link);
  });

  app.patch(`${RUNTIME_WINDOWS_ROUTE}/*`, async (c) => {
    const wid = windowIdOf(c);
    if (wid === undefined) return c.notFound();
    const { userId, appId } = await caller(c);
    const { patch, focus } = parseWindowPatch(await readJsonBody(c.req.raw));
    const window = await windowsRest(() =>
      dispatcher.patchWindow(wid, focus ? { ...patch, focus: true } : patch, userId, appId),
    );
    return jsonResponse(200, { window });
  });

  app.delete(`${RUNTIME_WINDOWS_ROUTE}/*`, async (c) => {
    const wid = windowIdOf(c);
    if (wid === undefined) return c.notFound();
    const { userId, appId } = await caller(c);
    await windowsRest(() => dispatcher.closeWindow(wid, "user", userId, appId));
    return jsonResponse(200, { ok: true });
  });

  return app;
}

/** The container a request opens the frame in: undefined when unsaid, null when unknown. */
function formFactorOf(raw: unknown): FormFactor | undefined | null {
  if (raw === undefined || raw === null || raw === "") return undefined;
  return (FORM_FACTORS as readonly unknown[]).includes(raw) ? (raw as FormFactor) : null;
}

function formFactorRefused(raw: unknown): Response {
  return errorResponse(
    "invalid_arg",
    `form_factor must be one of ${FORM_FACTORS.join(", ")}, the container opening the window (got ${JSON.stringify(raw)?.slice(0, 40)})`,
  );
}

/**
 * The window id as the client wrote it, decoded once here: Hono's own path decoding keeps a
 * malformed escape as text, where the client deserves 400 invalid_path.
 */
function windowIdOf(c: Context): string | undefined {
  const raw = new URL(c.req.url).pathname;
  const prefix = `${RUNTIME_WINDOWS_ROUTE}/`;
  // `/windows/*` also matches `/windows` itself, which names no window.
  if (!raw.startsWith(prefix)) return undefined;
  return decodePathSegment(raw.slice(prefix.length));
}
