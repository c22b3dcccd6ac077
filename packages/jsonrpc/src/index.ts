// @anna-ai/jsonrpc — platform-neutral entry (no `node:` imports): usable from the browser SDK and
// the iframe bridge. Node transports live in `@anna-ai/jsonrpc/node`.

export type {
  Disposable,
  DroppedLine,
  FrameMeta,
  FrameObserver,
  IncomingRequest,
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  Logger,
  NotificationHandler,
  RequestHandler,
  RequestOptions,
  Transport,
  TransportHandlers,
} from "./types.js";
export {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  RpcError,
  RpcLocalError,
} from "./errors.js";
export type { RpcLocalErrorCode } from "./errors.js";
export { NULL_LOGGER } from "./null-logger.js";
export { classifyMessage, isJsonRpcId } from "./classify.js";
export type { MessageKind } from "./classify.js";
export { DEFAULT_MAX_LINE_BYTES, HINT_WINDOW_BYTES, LineDecoder } from "./line-decoder.js";
export type { DecodedLine, LineDecoderOptions } from "./line-decoder.js";
export { recoverFrameHints } from "./frame-hints.js";
export type { FrameHints } from "./frame-hints.js";
export {
  maskText,
  REDACTED,
  redactSecrets,
  Redactor,
  secretValues,
} from "@anna-ai/app-schema/redact";
export { RpcPeer } from "./rpc-peer.js";
export type { AnyNotificationHandler, AnyRequestHandler, RpcPeerOptions } from "./rpc-peer.js";
export { createMemoryPair } from "./memory-transport.js";
export { RecordingTransport } from "./recording-transport.js";
export type {
  RecordedFrame,
  RecordingSink,
  RecordingTransportOptions,
} from "./recording-transport.js";
