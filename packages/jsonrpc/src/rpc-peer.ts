// One symmetric JSON-RPC peer: both sides call and serve over the same transport (T10). Our
// forward ids are ours and the other side's ids are only ever echoed, so the two directions never
// share a table. Hot path: one Map lookup per response, no closures per message, no validation
// beyond the shape checks of classifyMessage.

import { classifyMessage, isJsonRpcId } from "./classify.js";
import { DeadlineTimer, MAX_TIMER_MS, monotonicNow } from "./deadline-timer.js";
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  RpcError,
  RpcLocalError,
} from "./errors.js";
import type { RpcLocalErrorCode } from "./errors.js";
import { NULL_LOGGER } from "./null-logger.js";
import type {
  Disposable,
  DroppedLine,
  FrameMeta,
  FrameObserver,
  IncomingRequest,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcRequest,
  Logger,
  NotificationHandler,
  RequestHandler,
  RequestOptions,
  Transport,
} from "./types.js";

export interface RpcPeerOptions {
  /** Names this side of the connection in logs and errors (e.g. the plugin's tool_id). */
  name?: string;
  logger?: Logger;
  /** Timeout for requests that do not pass `timeoutMs`; unset or 0 means none. */
  defaultTimeoutMs?: number;
  /**
   * Forward ids: a number is the first id (default 1, counting up); a function makes each id
   * (e.g. 32-hex strings, as the Python SDK does for reverse requests).
   */
  nextId?: number | (() => JsonRpcId);
}

/** Fallback for methods without a dedicated handler. */
export type AnyRequestHandler = (
  method: string,
  params: unknown,
  request: IncomingRequest,
) => unknown;
export type AnyNotificationHandler = (method: string, params: unknown, meta: FrameMeta) => void;

/** Longest preview of an unexpected frame put in a log line. */
const LOG_PREVIEW_CHARS = 200;

function preview(message: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(message) ?? String(message);
  } catch {
    text = String(message);
  }
  return text.length > LOG_PREVIEW_CHARS ? text.slice(0, LOG_PREVIEW_CHARS) : text;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** One request we sent and are waiting for. Doubles as its abort listener (no closure). */
class PendingRequest {
  /** Monotonic ms after which it fails with TIMEOUT; 0 for none. */
  deadline = 0;
  timeoutMs = 0;

  constructor(
    readonly table: Map<JsonRpcId, PendingRequest>,
    readonly deadlines: DeadlineTimer,
    readonly id: JsonRpcId,
    readonly method: string,
    readonly resolve: (value: unknown) => void,
    readonly reject: (reason: unknown) => void,
    readonly signal: AbortSignal | undefined,
  ) {}

  /** Removes the request from its table and releases its deadline and abort listener. */
  forget(): void {
    if (this.table.get(this.id) === this) this.table.delete(this.id);
    if (this.deadline !== 0) {
      this.deadline = 0;
      this.deadlines.remove();
    }
    this.signal?.removeEventListener("abort", this);
  }

  /** Rejects for a local reason; a late reply is then logged as unmatched and dropped. */
  fail(code: RpcLocalErrorCode, message: string, cause?: unknown): void {
    this.forget();
    this.reject(new RpcLocalError(code, message, cause === undefined ? undefined : { cause }));
  }

  handleEvent(): void {
    if (this.table.get(this.id) !== this) return;
    this.fail("ABORTED", `${this.method} (id=${String(this.id)}) aborted`, this.signal?.reason);
  }
}

/**
 * The deadline timer fired: fail every pending request whose deadline has passed and return the
 * earliest deadline left. A scan of the pending table, once per expiry rather than once per reply.
 */
function expireRequests(table: Map<JsonRpcId, PendingRequest>, now: number): number | undefined {
  let next: number | undefined;
  const expired: PendingRequest[] = [];
  for (const pending of table.values()) {
    const deadline = pending.deadline;
    if (deadline === 0) continue;
    if (deadline <= now) expired.push(pending);
    else if (next === undefined || deadline < next) next = deadline;
  }
  for (const pending of expired) {
    if (pending.table.get(pending.id) !== pending) continue;
    pending.fail(
      "TIMEOUT",
      `${pending.method} (id=${String(pending.id)}) timed out after ${pending.timeoutMs} ms`,
    );
  }
  return next;
}

export class RpcPeer {
  readonly name: string;
  private readonly transport: Transport;
  private readonly logger: Logger;
  private readonly defaultTimeoutMs: number;
  private readonly makeId: (() => JsonRpcId) | undefined;
  private counter: number;

  private readonly pending = new Map<JsonRpcId, PendingRequest>();
  private readonly deadlines = new DeadlineTimer((now) => expireRequests(this.pending, now));
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private anyRequestHandler: AnyRequestHandler | undefined;
  private anyNotificationHandler: AnyNotificationHandler | undefined;
  private observers: FrameObserver[] = [];
  /** One signal for every handler: it only ever aborts when the connection goes away. */
  private readonly handlerAbort = new AbortController();

  private started = false;
  private closedFlag = false;
  private resolveClosed!: () => void;
  /** Resolves once the connection is closed, from either side. Never rejects. */
  readonly closed: Promise<void>;

  constructor(transport: Transport, options: RpcPeerOptions = {}) {
    this.transport = transport;
    this.name = options.name ?? "peer";
    this.logger = options.logger ?? NULL_LOGGER;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 0;
    const nextId = options.nextId;
    this.makeId = typeof nextId === "function" ? nextId : undefined;
    this.counter = typeof nextId === "number" ? nextId : 1;
    this.closed = new Promise<void>((resolve) => {
      this.resolveClosed = resolve;
    });
    this.onMessage = this.onMessage.bind(this);
    this.onDropped = this.onDropped.bind(this);
    this.onClose = this.onClose.bind(this);
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  /** Requests sent and not yet answered, timed out or aborted. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Starts reading. Register handlers first: frames arriving before a handler exists get -32601. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.transport.start({
      onMessage: this.onMessage,
      onDropped: this.onDropped,
      onClose: this.onClose,
    });
  }

  request<T = unknown>(method: string, params?: unknown, opts?: RequestOptions): Promise<T> {
    if (this.closedFlag) {
      return Promise.reject(
        new RpcLocalError(
          "CONNECTION_CLOSED",
          `${this.name}: connection closed; ${method} not sent`,
        ),
      );
    }
    const signal = opts?.signal;
    if (signal?.aborted === true) {
      return Promise.reject(
        new RpcLocalError("ABORTED", `${method} aborted before it was sent`, {
          cause: signal.reason,
        }),
      );
    }
    const id = opts?.id ?? this.nextId();
    if (this.pending.has(id)) {
      return Promise.reject(
        new Error(`${this.name}: request id ${JSON.stringify(id)} is already pending`),
      );
    }
    const message: JsonRpcRequest =
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };

    let pending!: PendingRequest;
    const promise = new Promise<T>((resolve, reject) => {
      pending = new PendingRequest(
        this.pending,
        this.deadlines,
        id,
        method,
        resolve as (value: unknown) => void,
        reject,
        signal,
      );
    });
    this.pending.set(id, pending);
    try {
      this.write(message);
    } catch (error) {
      this.pending.delete(id);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // The write may have found the transport closed and torn everything down synchronously.
    if (this.pending.get(id) !== pending) return promise;
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    // Past the timer range Node would fire after 1 ms: treat such values as "no timeout".
    if (timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS) {
      pending.timeoutMs = timeoutMs;
      pending.deadline = monotonicNow() + timeoutMs;
      this.deadlines.add(pending.deadline);
    }
    signal?.addEventListener("abort", pending, { once: true });
    return promise;
  }

  notify(method: string, params?: unknown): void {
    if (this.closedFlag) {
      this.logger.debug("notification dropped: connection closed", { peer: this.name, method });
      return;
    }
    this.write(
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params },
    );
  }

  onRequest(method: string, handler: RequestHandler): Disposable {
    this.requestHandlers.set(method, handler);
    return {
      dispose: () => {
        if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method);
      },
    };
  }

  /** Serves every request without a dedicated handler. Without one: -32601. */
  onAnyRequest(handler: AnyRequestHandler): Disposable {
    this.anyRequestHandler = handler;
    return {
      dispose: () => {
        if (this.anyRequestHandler === handler) this.anyRequestHandler = undefined;
      },
    };
  }

  onNotification(method: string, handler: NotificationHandler): Disposable {
    this.notificationHandlers.set(method, handler);
    return {
      dispose: () => {
        if (this.notificationHandlers.get(method) === handler)
          this.notificationHandlers.delete(method);
      },
    };
  }

  onAnyNotification(handler: AnyNotificationHandler): Disposable {
    this.anyNotificationHandler = handler;
    return {
      dispose: () => {
        if (this.anyNotificationHandler === handler) this.anyNotificationHandler = undefined;
      },
    };
  }

  /** Sees every frame in both directions, in wire order. */
  observe(observer: FrameObserver): Disposable {
    this.observers = [...this.observers, observer];
    return {
      dispose: () => {
        this.observers = this.observers.filter((o) => o !== observer);
      },
    };
  }

  /** Closes the connection: pending requests reject with CONNECTION_CLOSED, handler signals abort. */
  async close(reason?: Error): Promise<void> {
    this.teardown(reason);
    try {
      await this.transport.close();
    } catch (error) {
      this.logger.debug("transport close failed", { peer: this.name, error: String(error) });
    }
  }

  // ---- outgoing ----------------------------------------------------------------------------

  private nextId(): JsonRpcId {
    if (this.makeId !== undefined) return this.makeId();
    return this.counter++;
  }

  private write(message: JsonRpcMessage): void {
    const bytes = this.transport.send(message);
    if (this.observers.length > 0 && bytes > 0) this.notifyObservers("out", message, { bytes });
  }

  private notifyObservers(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void {
    for (const observer of this.observers) {
      try {
        observer(direction, message, meta);
      } catch (error) {
        this.logger.warn("frame observer threw", { peer: this.name, error: String(error) });
      }
    }
  }

  private reply(id: JsonRpcId | null, result: unknown): void {
    if (this.closedFlag) return;
    try {
      this.write({ jsonrpc: "2.0", id, result: result === undefined ? null : result });
    } catch (error) {
      // Usually a result JSON cannot represent (BigInt, cycles): the caller still gets an answer.
      this.replyError(id, error);
    }
  }

  private replyError(id: JsonRpcId | null, error: unknown): void {
    if (this.closedFlag) return;
    let wire: RpcError;
    if (error instanceof RpcError) {
      wire = error;
    } else {
      const message = error instanceof Error ? error.message : String(error);
      wire = new RpcError(INTERNAL_ERROR, message);
    }
    try {
      this.write({ jsonrpc: "2.0", id, error: wire.toJSON() });
    } catch (writeError) {
      // The error's `data` itself could not be serialised: send it without.
      this.logger.warn("error reply could not be serialised", {
        peer: this.name,
        error: String(writeError),
      });
      this.write({ jsonrpc: "2.0", id, error: { code: wire.code, message: wire.message } });
    }
  }

  // ---- incoming ----------------------------------------------------------------------------

  private onMessage(message: Record<string, unknown>, meta: FrameMeta): void {
    if (this.closedFlag) return;
    const kind = classifyMessage(message);
    if (this.observers.length > 0 && kind !== "invalid") {
      this.notifyObservers("in", message as unknown as JsonRpcMessage, meta);
    }
    switch (kind) {
      case "response":
        this.onResponse(message);
        return;
      case "request":
        this.onIncomingRequest(message, meta);
        return;
      case "notification":
        this.onIncomingNotification(message, meta);
        return;
      default:
        this.onInvalid(message);
    }
  }

  private onResponse(message: Record<string, unknown>): void {
    const id = message.id as JsonRpcId | null;
    let pending = id === null ? undefined : this.pending.get(id);
    if (pending === undefined && typeof id === "string" && /^-?\d{1,15}$/.test(id)) {
      // Liberal: a peer that stringified our integer id still answers that request.
      pending = this.pending.get(Number(id));
    }
    if (pending === undefined) {
      const error = message.error;
      this.logger.warn(`unmatched response id=${JSON.stringify(id)}`, {
        peer: this.name,
        ...(error === undefined ? {} : { error: preview(error) }),
      });
      return;
    }
    pending.forget();
    if (message.error !== undefined) pending.reject(RpcError.fromObject(message.error));
    else pending.resolve(message.result);
  }

  private onIncomingRequest(message: Record<string, unknown>, meta: FrameMeta): void {
    const id = message.id as JsonRpcId;
    const method = message.method as string;
    const handler = this.requestHandlers.get(method);
    const request: IncomingRequest = { id, method, meta, signal: this.handlerAbort.signal };
    let result: unknown;
    try {
      if (handler !== undefined) {
        result = handler(message.params, request);
      } else if (this.anyRequestHandler !== undefined) {
        result = this.anyRequestHandler(method, message.params, request);
      } else {
        this.replyError(id, new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`));
        return;
      }
    } catch (error) {
      this.replyError(id, error);
      return;
    }
    if (isThenable(result)) void this.replyLater(id, result);
    else this.reply(id, result);
  }

  private async replyLater(id: JsonRpcId, result: PromiseLike<unknown>): Promise<void> {
    let value: unknown;
    try {
      value = await result;
    } catch (error) {
      this.replyError(id, error);
      return;
    }
    this.reply(id, value);
  }

  private onIncomingNotification(message: Record<string, unknown>, meta: FrameMeta): void {
    const method = message.method as string;
    const handler = this.notificationHandlers.get(method);
    try {
      if (handler !== undefined) handler(message.params, meta);
      else if (this.anyNotificationHandler !== undefined)
        this.anyNotificationHandler(method, message.params, meta);
      else this.logger.debug("notification without handler", { peer: this.name, method });
    } catch (error) {
      this.logger.warn("notification handler threw", {
        peer: this.name,
        method,
        error: String(error),
      });
    }
  }

  private onInvalid(message: Record<string, unknown>): void {
    if (message.method !== undefined) {
      const id = isJsonRpcId(message.id) ? message.id : null;
      this.logger.warn("invalid request", { peer: this.name, preview: preview(message) });
      this.replyError(id, new RpcError(INVALID_REQUEST, "Invalid Request"));
      return;
    }
    this.logger.warn("frame with neither a method nor a result dropped", {
      peer: this.name,
      preview: preview(message),
    });
  }

  private onDropped(line: DroppedLine): void {
    if (this.closedFlag) return;
    if (line.reason === "oversized") {
      this.logger.warn("oversized frame dropped", { peer: this.name, ...line });
      if (line.idHint === undefined) return;
      const pending = line.methodHint === undefined ? this.pending.get(line.idHint) : undefined;
      if (pending !== undefined) {
        pending.fail(
          "FRAME_TOO_LARGE",
          `${this.name}: reply to ${pending.method} (id=${String(line.idHint)}) was ${line.bytes} bytes, over the line limit`,
        );
      } else if (line.methodHint !== undefined) {
        // A request we cannot read: answer it so the other side does not wait forever (H2).
        this.replyError(
          line.idHint,
          new RpcError(
            INVALID_REQUEST,
            `Request too large: ${line.bytes} bytes exceeds the line limit`,
            {
              errorCode: "FRAME_TOO_LARGE",
            },
          ),
        );
      }
      return;
    }
    if (line.reason === "file_transport_failed") {
      this.logger.warn("file transport frame dropped", { peer: this.name, ...line });
      const pending = line.idHint === undefined ? undefined : this.pending.get(line.idHint);
      if (pending !== undefined) {
        pending.fail(
          "INVALID_FRAME",
          `${this.name}: reply to ${pending.method} (id=${String(pending.id)}) could not be read from ${line.path}: ${line.error}`,
        );
      }
      return;
    }
    // The transport that saw the line already logged it at warn (H1); nothing to fail here.
    this.logger.debug("unreadable line skipped", {
      peer: this.name,
      reason: line.reason,
      bytes: line.bytes,
    });
  }

  private onClose(reason?: Error): void {
    this.teardown(reason);
  }

  // ---- settlement --------------------------------------------------------------------------

  private teardown(reason?: Error): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const message = `${this.name}: connection closed${reason === undefined ? "" : `: ${reason.message}`}`;
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const pending of all) {
      pending.fail(
        "CONNECTION_CLOSED",
        `${message} (${pending.method} id=${String(pending.id)} pending)`,
        reason,
      );
    }
    this.deadlines.stop();
    this.handlerAbort.abort(reason ?? new RpcLocalError("CONNECTION_CLOSED", message));
    this.resolveClosed();
  }
}
