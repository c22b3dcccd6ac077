// @ts-check
// The parent-page bridge of docs/app-runtime.md part 2: a message is acted on only when it comes
// from an app iframe's contentWindow and names that iframe's own window; `auth.refresh` is
// answered here with a token the harness mints and records (POST /dev/api/events, so the session's
// recording holds the refresh, A10); every other call goes to the rpc endpoint and its
// answer back unchanged. Events reach an iframe only after its `window.hello` (A5).
/* global document, window -- a browser module: the page's globals */
import {
  BRIDGE_AUTH_NAMESPACE,
  decodeRpcRequest,
  EVENT_MESSAGE_TYPE,
  RPC_RESPONSE_TYPE,
} from "/static/anna-apps/_sdk/latest/index.js";
import { publishEvent, RPC } from "./harness-api.js";
import { logDropped } from "./panel.js";

/**
 * @typedef {import("./frames.js").Frame} Frame
 * @typedef {import("/static/anna-apps/_sdk/latest/index.js").RpcRequestMessage} RpcRequestMessage
 * @typedef {{ ok: true, result: unknown } | { ok: false, error: { code: string, message: string, details?: unknown } }} ReplyBody
 * @typedef {{ kind?: string, window_uuid?: string | null, payload?: { window_uuid?: string } & Record<string, unknown> }} RelayedEvent
 */

/** What the harness records for a token the page hands out (its `expires_in`, never the token). */
const BRIDGE_REFRESH_EVENT = "auth.refresh";
/** Kinds about the app as a whole (no window), relayed to every window of it. */
const SIBLING_KINDS = new Set(["open_view", "close_view"]);

/**
 * `frameOf(source)` finds the frame whose iframe's contentWindow posted (desk.frameOf).
 * @param {(source: MessageEventSource | null) => Frame | undefined} frameOf
 */
export function startBridge(frameOf) {
  window.addEventListener("message", (event) => {
    const frame = frameOf(event.source);
    if (frame === undefined) {
      logDropped("not from an app iframe of this page", event.origin, event.data);
      return;
    }
    const request = decodeRpcRequest(event.data);
    if (request === undefined) {
      logDropped(
        "not an anna-app/rpc request (type, id, window_uuid, token, ns, method, args)",
        event.origin,
        event.data,
      );
      return;
    }
    if (request.window_uuid !== frame.wid) {
      logDropped(
        `names window ${request.window_uuid}, but its iframe is window ${frame.wid}`,
        event.origin,
        event.data,
      );
      return;
    }
    void answer(frame, request);
  });
}

/** @param {Frame} frame @param {RpcRequestMessage} request */
async function answer(frame, request) {
  const target = frame.iframe?.contentWindow;
  const reply = (/** @type {ReplyBody} */ body) =>
    target?.postMessage({ type: RPC_RESPONSE_TYPE, id: request.id, ...body }, "*");
  if (request.ns === BRIDGE_AUTH_NAMESPACE) {
    const out = await publishEvent(BRIDGE_REFRESH_EVENT, frame.wid);
    if (out.ok) {
      const { token, expires_in } = out.page_event.payload;
      reply({ ok: true, result: { token, expires_in } });
    } else
      reply({
        ok: false,
        error: {
          code: "invalid_token",
          message: `window ${frame.wid} is gone: ${out.error.message}`,
        },
      });
    return;
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), request.timeout_ms);
  try {
    const res = await fetch(RPC, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Anna-App-Token": request.token },
      body: JSON.stringify({
        id: request.id,
        window_uuid: request.window_uuid,
        ns: request.ns,
        method: request.method,
        args: request.args,
      }),
      signal: abort.signal,
    });
    const out = await res.json();
    if (request.ns === "window" && request.method === "hello" && out.ok) frame.helloed = true;
    if (request.ns === "files" && request.method === "download" && out.ok)
      startDownload(out.result);
    reply(out.ok ? { ok: true, result: out.result } : { ok: false, error: out.error });
  } catch (error) {
    const aborted = abort.signal.aborted;
    reply({
      ok: false,
      error: {
        code: aborted ? "timeout" : "network",
        message: aborted
          ? `no answer from the harness within ${request.timeout_ms} ms`
          : String(error instanceof Error ? error.message : error),
      },
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * R140: the page, not the sandboxed iframe, starts the download; the URL is not passed on.
 * @param {{ get_url?: unknown, filename?: unknown } | null | undefined} result
 */
function startDownload(result) {
  if (typeof result?.get_url !== "string") return;
  const link = document.createElement("a");
  link.href = result.get_url;
  link.download = typeof result.filename === "string" ? result.filename : "";
  link.click();
  delete result.get_url;
}

/**
 * Posts an event to every helloed frame it concerns (its own, app-wide, sibling open/close).
 * @param {Iterable<Frame>} frames
 * @param {RelayedEvent} event
 */
export function relay(frames, event) {
  const about = event.window_uuid || event.payload?.window_uuid;
  for (const frame of frames) {
    if (!frame.helloed || !frame.iframe) continue;
    if (about === frame.wid || !event.window_uuid || SIBLING_KINDS.has(event.kind ?? "")) {
      frame.iframe.contentWindow?.postMessage({ type: EVENT_MESSAGE_TYPE, event }, "*");
    }
  }
}

/**
 * A page-local named event (`entry_payload`, `auth.refresh`) to one frame.
 * @param {Frame} frame
 * @param {string} name
 * @param {unknown} payload
 */
export function postNamedEvent(frame, name, payload) {
  frame.iframe?.contentWindow?.postMessage({ type: EVENT_MESSAGE_TYPE, name, payload }, "*");
}
