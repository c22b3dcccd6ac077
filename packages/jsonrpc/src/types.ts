// The contracts every part of @anna-ai/jsonrpc is built against. The executa host, the plugin
// SDK and (later) the postMessage bridge all talk through these, so keep them small and stable.

/** JSON-RPC ids are echoed exactly, with their type: a stringified integer leaves a peer waiting. */
export type JsonRpcId = string | number;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Libraries never print: they log through this, and the default discards everything. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Facts about one frame as it crossed the transport, for traces, recordings and budgets. */
export interface FrameMeta {
  /** Bytes of the line on the wire (the pointer line when file transport was used). */
  bytes: number;
  /** Set when the frame travelled through `__file_transport`; the path it was read from/written to. */
  fileTransport?: string;
}

/**
 * Why a transport dropped a line instead of delivering it. The peer turns `oversized` frames
 * whose id it can recover into an error for that request (H2); everything is also logged.
 */
export type DroppedLine =
  | { reason: "not_json"; preview: string; bytes: number }
  | { reason: "not_object"; preview: string; bytes: number }
  | { reason: "oversized"; bytes: number; idHint?: JsonRpcId; methodHint?: string }
  | { reason: "file_transport_failed"; path: string; error: string; idHint?: JsonRpcId };

export interface TransportHandlers {
  /** A parsed JSON object (file transport already resolved). Classification is the peer's job. */
  onMessage(message: Record<string, unknown>, meta: FrameMeta): void;
  /** A line that could not become a message. Never fatal. */
  onDropped?(line: DroppedLine): void;
  /** The other side is gone (EOF, exit, closed port). Called exactly once. */
  onClose(reason?: Error): void;
}

/**
 * A dumb pipe for whole messages. It frames, caps and (de)serialises; it does not correlate ids.
 * `send` never throws for a closed transport: it returns false and the peer finds out via onClose.
 */
export interface Transport {
  start(handlers: TransportHandlers): void;
  /** Serialise and write one message. Returns the bytes written (0 when closed). */
  send(message: JsonRpcMessage): number;
  /** Stop reading and writing; resolves once the underlying resources are released. */
  close(): Promise<void>;
}

export interface RequestOptions {
  /** Reject with `RpcLocalError("TIMEOUT")` after this long. Omit for the peer default. */
  timeoutMs?: number;
  /** Reject with `RpcLocalError("ABORTED")` when aborted; the reply, if it comes, is dropped. */
  signal?: AbortSignal;
  /** Use this id instead of the next generated one (e.g. `initialize` goes out as id 0). */
  id?: JsonRpcId;
}

/** What a request handler learns about the request it serves. */
export interface IncomingRequest {
  id: JsonRpcId;
  method: string;
  meta: FrameMeta;
  /** Aborted when the peer closes while the handler runs. */
  signal: AbortSignal;
}

export type RequestHandler = (params: unknown, request: IncomingRequest) => unknown;
export type NotificationHandler = (params: unknown, meta: FrameMeta) => void;

export interface Disposable {
  dispose(): void;
}

/** Observes every frame in both directions, in wire order, for traces and UIs. */
export type FrameObserver = (
  direction: "in" | "out",
  message: JsonRpcMessage,
  meta: FrameMeta,
) => void;
