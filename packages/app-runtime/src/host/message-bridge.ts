// The parent-page bridge (docs/app-runtime.md part 2, "Messages from the iframe"). A message is
// acted on only when it comes from an app iframe's contentWindow (`event.source`) and names that
// iframe's own window. The origin is not a check: every sandboxed iframe without
// allow-same-origin posts with origin "null", so it proves nothing, and the source does. It is
// kept for the report of a dropped message. `auth.refresh` is answered here with a fresh window
// token, never forwarded; every other call goes to the rpc endpoint and its answer goes back
// unchanged, or the page answers the caller's deadline itself.
import { BRIDGE_AUTH_NAMESPACE, decodeRpcRequest, RPC_RESPONSE_TYPE } from "../wire.js";
import type { RpcRequestMessage } from "../wire.js";
import { messageOf, type RuntimeClient, type WireError } from "./runtime-client.js";

/** What the bridge needs of a frame: its window and iframe, and whether it has said hello. */
export interface BridgeFrame {
  readonly wid: string;
  readonly iframe: HTMLIFrameElement | null;
  helloed: boolean;
}

/** A fresh token for a window (`auth.refresh`'s answer), or why there is none. */
export type TokenAnswer =
  | { ok: true; token: string; expires_in?: number; expires_at?: number | string }
  | { ok: false; error: WireError };

/** A message the bridge did not act on, and why. */
export interface DroppedMessage {
  kind: "dropped";
  reason: string;
  origin: string;
  data: unknown;
}

export interface MessageBridgeOptions<F extends BridgeFrame> {
  frameOf(source: MessageEventSource | null): F | undefined;
  client: RuntimeClient;
  refreshToken(frame: F): Promise<TokenAnswer>;
  onDropped(report: DroppedMessage): void;
  /** Who answers rpcs, as a timeout message names it ("the harness", "the server"). */
  serverName: string;
  /** The app's `window.hello` was answered: its result (view_meta, geometry…) for the page. */
  onHello?(frame: F, result: unknown): void;
}

type ReplyBody = { ok: true; result: unknown } | { ok: false; error: WireError };

/** Listens for the iframes' requests on `win` until the returned function is called. */
export function startMessageBridge<F extends BridgeFrame>(
  win: Window,
  options: MessageBridgeOptions<F>,
): () => void {
  const listener = (event: MessageEvent): void => {
    const drop = (reason: string): void =>
      options.onDropped({ kind: "dropped", reason, origin: event.origin, data: event.data });
    const frame = options.frameOf(event.source);
    if (frame === undefined) return drop("not from an app iframe of this page");
    const request = decodeRpcRequest(event.data);
    if (request === undefined)
      return drop("not an anna-app/rpc request (type, id, window_uuid, token, ns, method, args)");
    if (request.window_uuid !== frame.wid)
      return drop(`names window ${request.window_uuid}, but its iframe is window ${frame.wid}`);
    void answer(frame, request, options);
  };
  win.addEventListener("message", listener);
  return () => win.removeEventListener("message", listener);
}

async function answer<F extends BridgeFrame>(
  frame: F,
  request: RpcRequestMessage,
  options: MessageBridgeOptions<F>,
): Promise<void> {
  // The iframe that asked: a reload in between has a new contentWindow, which gets nothing.
  const target = frame.iframe?.contentWindow;
  const reply = (body: ReplyBody): void =>
    target?.postMessage({ type: RPC_RESPONSE_TYPE, id: request.id, ...body }, "*");
  if (request.ns === BRIDGE_AUTH_NAMESPACE) {
    const out = await options.refreshToken(frame);
    if (out.ok) {
      const { ok: _ok, ...token } = out;
      reply({ ok: true, result: token });
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
    const { id, window_uuid, ns, method, args } = request;
    const out = (await options.client.rpc(
      { id, window_uuid, ns, method, args },
      request.token,
      abort.signal,
    )) as { ok?: unknown; result?: unknown; error?: WireError };
    if (ns === "window" && method === "hello" && out.ok === true) {
      frame.helloed = true;
      options.onHello?.(frame, out.result);
    }
    if (ns === "files" && method === "download" && out.ok === true) startDownload(out.result);
    reply(
      out.ok === true
        ? { ok: true, result: out.result }
        : {
            ok: false,
            error: out.error ?? { code: "internal", message: "no error in the answer" },
          },
    );
  } catch (error) {
    const aborted = abort.signal.aborted;
    reply({
      ok: false,
      error: {
        code: aborted ? "timeout" : "network",
        message: aborted
          ? `no answer from ${options.serverName} within ${request.timeout_ms} ms`
          : messageOf(error),
      },
    });
  } finally {
    clearTimeout(timer);
  }
}

/** R140: the page, not the sandboxed iframe, starts the download; the URL is not passed on. */
function startDownload(result: unknown): void {
  if (typeof result !== "object" || result === null) return;
  const fields = result as { get_url?: unknown; filename?: unknown };
  if (typeof fields.get_url !== "string") return;
  const link = document.createElement("a");
  link.href = fields.get_url;
  link.download = typeof fields.filename === "string" ? fields.filename : "";
  link.click();
  delete fields.get_url;
}
