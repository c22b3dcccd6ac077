// @anna-ai/app-core/http: the runtime wire as a Hono application, and the HTTP-layer pieces a
// server mounting it shares (JSON answers, capped bodies, bounded event streams, the error map).
export {
  CONVERSATION_ID_MAX_CHARS,
  createRuntimeApp,
  RUNTIME_API,
  RUNTIME_EVENTS_ROUTE,
  RUNTIME_RPC_ROUTE,
  RUNTIME_WINDOWS_ROUTE,
  type RpcCall,
  type RuntimeAppOptions,
  type RuntimeCaller,
} from "./runtime-app.js";
export {
  eventCursor,
  pipeRuntimeEvents,
  RESYNC_EVENT_NAME,
  type RuntimeEventSource,
} from "./runtime-event-stream.js";
export { HttpError } from "./http-error.js";
export { errorResponse, jsonResponse } from "./json-response.js";
export { errorAnswer, notFoundAnswer } from "./on-error.js";
export { isJsonObject, jsonFields, MAX_BODY_BYTES, readJsonBody } from "./read-json-body.js";
export { JSON_MAX_DEPTH, jsonNestsDeeperThan } from "./json-depth.js";
export { decodePathSegment } from "./path-segment.js";
export { rawPathOf, rawTargetOf } from "./request-target.js";
export {
  SSE_CLIENT_BUFFER_MAX_BYTES,
  nodeTransportOf,
  SSE_HEADERS,
  SSE_KEEPALIVE_MS,
  SSE_STREAMS_MAX,
  SSE_STREAMS_PER_ROUTE_MAX,
  SseClient,
  SseStreams,
  type SseLimits,
  type SseSink,
  type SseTransport,
} from "./sse-streams.js";
export {
  liveWindowLink,
  type WindowLink,
  type WindowUrl,
  type WindowUrlContext,
} from "./window-link.js";
export { parseWindowPatch, windowsRest, type ParsedWindowPatch } from "./window-patch.js";
