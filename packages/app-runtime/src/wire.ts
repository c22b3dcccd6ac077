/**
 * The postMessage wire between an app iframe and its host page (docs/app-runtime.md has the full
 * contract). Requests carry the spec's RPC envelope (L6327–L6345) plus the window token and the
 * caller's deadline; the page forwards `{id, window_uuid, ns, method, args}` to
 * `POST /api/v1/anna-apps/runtime/rpc` with the token in `X-Anna-App-Token`.
 */

import { DEFAULT_CALL_TIMEOUT_MS } from "./call-timeouts.js";

export const RPC_REQUEST_TYPE = "anna-app/rpc";
export const RPC_RESPONSE_TYPE = "anna-app/rpc-result";
export const EVENT_MESSAGE_TYPE = "anna-app/event";

/**
 * Bridge-local namespace: the host page answers `auth.refresh` itself (a fresh window token) and
 * never forwards it to the dispatcher.
 */
export const BRIDGE_AUTH_NAMESPACE = "auth";

export interface RpcRequestMessage {
  type: typeof RPC_REQUEST_TYPE;
  id: string;
  window_uuid: string;
  /** The window token (`t`, or the last one `auth.refresh` delivered). */
  token: string;
  ns: string;
  method: string;
  /** Always an object: never `null` (the dispatcher validates `args` as a mapping). */
  args: Record<string, unknown>;
  /** The SDK gives up after this long; the page may abort its forwarded request at the same time. */
  timeout_ms: number;
}

export interface RpcErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

export type RpcResponseMessage =
  | { type?: typeof RPC_RESPONSE_TYPE; id: string; ok: true; result: unknown }
  | { type?: typeof RPC_RESPONSE_TYPE; id: string; ok: false; error: RpcErrorBody };

/**
 * An event relayed by the page: an `AnnaAppEvent` as the SSE stream carried it, or a page-local
 * event by name (`auth.refresh` with `{token, expires_in?}`, simulated `entry_payload`, …).
 */
export type EventMessage =
  | { type: typeof EVENT_MESSAGE_TYPE; event: Record<string, unknown> }
  | { type: typeof EVENT_MESSAGE_TYPE; name: string; payload?: unknown };

export function encodeRequest(fields: Omit<RpcRequestMessage, "type">): RpcRequestMessage {
  return { type: RPC_REQUEST_TYPE, ...fields };
}

/** What a message from the host page turned out to be. */
export type HostMessage =
  | { kind: "response"; id: string; ok: true; result: unknown }
  | { kind: "response"; id: string; ok: false; error: unknown }
  | { kind: "event"; event: Record<string, unknown> }
  | { kind: "named-event"; name: string; payload: unknown }
  | { kind: "ignored" };

const IGNORED: HostMessage = Object.freeze({ kind: "ignored" });

/**
 * Classify a message from the host page. Liberal: a bare `{id, ok, result|error}` (the spec's
 * envelope without our `type`) is a response, and a bare `{type: "data_model/AnnaAppEvent"}`
 * is an event. Anything else is ignored, never thrown on — other scripts post messages too.
 */
export function decodeHostMessage(data: unknown): HostMessage {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return IGNORED;
  const message = data as Record<string, unknown>;
  const type = message["type"];
  if (type === RPC_RESPONSE_TYPE || (type === undefined && typeof message["ok"] === "boolean")) {
    const id = message["id"];
    if (typeof id !== "string" && typeof id !== "number") return IGNORED;
    if (message["ok"] === true)
      return { kind: "response", id: String(id), ok: true, result: message["result"] };
    if (message["ok"] === false)
      return { kind: "response", id: String(id), ok: false, error: message["error"] };
    return IGNORED;
  }
  if (type === EVENT_MESSAGE_TYPE) {
    const event = message["event"];
    if (typeof event === "object" && event !== null && !Array.isArray(event)) {
      return { kind: "event", event: event as Record<string, unknown> };
    }
    const name = message["name"];
    if (typeof name === "string" && name !== "") {
      return { kind: "named-event", name, payload: message["payload"] };
    }
    return IGNORED;
  }
  if (type === "data_model/AnnaAppEvent" && typeof message["kind"] === "string") {
    return { kind: "event", event: message };
  }
  return IGNORED;
}

/**
 * The host page's side: a message from an app iframe as an `RpcRequestMessage`, or undefined when
 * it is not one (wrong type tag, missing or mistyped fields). The page must still check
 * `event.source` and that `window_uuid` is that iframe's window (docs/app-runtime.md, part 2).
 */
export function decodeRpcRequest(data: unknown): RpcRequestMessage | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const message = data as Record<string, unknown>;
  const { id, window_uuid: windowUuid, token, ns, method, args, timeout_ms: timeoutMs } = message;
  if (message["type"] !== RPC_REQUEST_TYPE) return undefined;
  if (typeof id !== "string" || id === "") return undefined;
  if (typeof windowUuid !== "string" || typeof token !== "string") return undefined;
  if (typeof ns !== "string" || ns === "" || typeof method !== "string" || method === "")
    return undefined;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  return {
    type: RPC_REQUEST_TYPE,
    id,
    window_uuid: windowUuid,
    token,
    ns,
    method,
    args: args as Record<string, unknown>,
    timeout_ms:
      typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs > 0
        ? timeoutMs
        : DEFAULT_CALL_TIMEOUT_MS,
  };
}
