// Tells requests from notifications from responses by shape, as both peers must (T10): `method`
// marks a request or notification, `id` + `result|error` a response. No schema validation here:
// this runs once per frame on the hot path, and params are validated by whoever handles them.

import type { JsonRpcId } from "./types.js";

export type MessageKind = "request" | "notification" | "response" | "invalid";

/** True for the id types JSON-RPC allows on a request (null is reserved for error replies). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * Classifies a parsed frame. `invalid` covers a request whose method or id has the wrong type,
 * a response with neither `result` nor `error`, and a frame with neither `method` nor `id`; the
 * peer answers the first with -32600 and logs the others.
 */
export function classifyMessage(obj: Record<string, unknown>): MessageKind {
  const method = obj.method;
  if (method !== undefined) {
    if (typeof method !== "string") return "invalid";
    const id = obj.id;
    if (id === undefined) return "notification";
    return isJsonRpcId(id) ? "request" : "invalid";
  }
  const id = obj.id;
  if (id === undefined) return "invalid";
  if (id !== null && !isJsonRpcId(id)) return "invalid";
  if (obj.result !== undefined || obj.error !== undefined) return "response";
  // `{"id": 1, "result": null}`: JSON null result is still a result.
  return "result" in obj ? "response" : "invalid";
}
