// Two in-memory "windows" exchanging MessageEvents: the app iframe (the SDK's `self`) and the host
// page (its `parent`). Delivery is asynchronous, like postMessage, and honours targetOrigin.
import type {
  BridgeWindow,
  ConnectOptions,
  MessageEventLike,
  MessageListener,
  RpcRequestMessage,
} from "../../src/index.js";

export const HOST_ORIGIN = "https://host.test";
export const WINDOW_UUID = "6f1c2b8e-0000-4000-8000-000000000001";
export const TOKEN = "dev-token-1";
export const APP_URL = `${HOST_ORIGIN}/anna-apps/demo/dev/index.html?wid=${WINDOW_UUID}&t=${TOKEN}`;

export const HELLO_RESULT = {
  window_uuid: WINDOW_UUID,
  app_id: "app-1",
  version_id: "dev",
  view_meta: { name: "main", title: "Demo", default_size: { w: 640, h: 480 } },
  capabilities: { storage: ["get", "set"] },
  entry_payload: { mode: "first" },
  runtime_state: { notes: "hi" },
  geometry: { x: 1, y: 2, w: 640, h: 480 },
};

/** A window other scripts can post from: it has an origin and a way to deliver to the iframe. */
export class FakeWindow implements BridgeWindow {
  parent: FakeWindow | { postMessage(message: unknown, targetOrigin: string): void };
  readonly listeners = new Set<MessageListener>();

  constructor(parent?: FakeWindow) {
    this.parent = parent ?? this;
  }

  addEventListener(_type: "message", listener: MessageListener): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: "message", listener: MessageListener): void {
    this.listeners.delete(listener);
  }

  postMessage(_message: unknown, _targetOrigin: string): void {}

  dispatch(event: MessageEventLike): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/** The host page's window: what the iframe posts to lands in `onPost`. */
class PageWindow extends FakeWindow {
  constructor(private readonly onPost: (message: unknown, targetOrigin: string) => void) {
    super();
  }

  override postMessage(message: unknown, targetOrigin: string): void {
    this.onPost(message, targetOrigin);
  }
}

export type Handler = (request: RpcRequestMessage) => unknown;
/** A handler returns this to leave the request unanswered. */
export const NO_ANSWER = Symbol("no answer");

/** Throw from a handler to answer `{ok: false, error}`. */
export class WireError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "WireError";
  }
}

interface Waiter {
  match(request: RpcRequestMessage): boolean;
  resolve(request: RpcRequestMessage): void;
}

export class FakeHost {
  readonly page: FakeWindow;
  readonly iframe: FakeWindow;
  /** Every request the page received, in order. */
  readonly requests: RpcRequestMessage[] = [];
  /** Target origins the iframe posted with. */
  readonly targetOrigins: string[] = [];
  readonly handlers = new Map<string, Handler>();
  readonly #waiters: Waiter[] = [];

  constructor(readonly origin = HOST_ORIGIN) {
    this.page = new PageWindow((message, targetOrigin) => this.#fromIframe(message, targetOrigin));
    this.iframe = new FakeWindow(this.page);
    this.handle("window.hello", () => HELLO_RESULT);
    this.handle("window.ready", () => ({}));
    this.handle("window.heartbeat", () => ({}));
  }

  handle(key: string, handler: Handler): this {
    this.handlers.set(key, handler);
    return this;
  }

  connectOptions(extra: Partial<ConnectOptions> = {}): ConnectOptions {
    return {
      window: this.iframe,
      environment: { href: APP_URL, referrer: `${HOST_ORIGIN}/` },
      ...extra,
    };
  }

  requestsFor(key: string): RpcRequestMessage[] {
    return this.requests.filter((request) => `${request.ns}.${request.method}` === key);
  }

  /** Resolves with the next request matching `key` (`ns.method`), or rejects after `timeoutMs`. */
  waitForRequest(key: string, timeoutMs = 1_000): Promise<RpcRequestMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${key} request within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        match: (request) => `${request.ns}.${request.method}` === key,
        resolve: (request) => {
          clearTimeout(timer);
          resolve(request);
        },
      });
    });
  }

  /**
   * Resolves once every message already posted has been delivered: deliveries are microtasks,
   * so one macrotask turn is enough. Used to assert that something was *not* delivered.
   */
  settle(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** Post `data` to the iframe as if from `source` at `origin` (defaults: the page, the host). */
  post(data: unknown, source: unknown = this.page, origin = this.origin): void {
    queueMicrotask(() => this.iframe.dispatch({ data, source, origin }));
  }

  respond(id: string, body: { ok: true; result: unknown } | { ok: false; error: unknown }): void {
    this.post({ type: "anna-app/rpc-result", id, ...body });
  }

  /** Relay an `AnnaAppEvent` the way the page does. */
  emitEvent(event: Record<string, unknown>): void {
    this.post({ type: "anna-app/event", event });
  }

  emitNamed(name: string, payload?: unknown): void {
    this.post({ type: "anna-app/event", name, payload });
  }

  #fromIframe(message: unknown, targetOrigin: string): void {
    // What the browser does: clone (DataCloneError for functions), drop on origin mismatch.
    const data = structuredClone(message) as RpcRequestMessage;
    this.targetOrigins.push(targetOrigin);
    if (targetOrigin !== "*" && targetOrigin !== this.origin) return;
    queueMicrotask(() => this.#receive(data));
  }

  #receive(request: RpcRequestMessage): void {
    this.requests.push(request);
    const key = `${request.ns}.${request.method}`;
    const index = this.#waiters.findIndex((waiter) => waiter.match(request));
    if (index >= 0) this.#waiters.splice(index, 1)[0]?.resolve(request);
    const handler = this.handlers.get(key);
    if (handler === undefined) return;
    void (async () => {
      try {
        const result = await handler(request);
        if (result === NO_ANSWER) return;
        this.respond(request.id, { ok: true, result });
      } catch (error) {
        if (error instanceof WireError) {
          this.respond(request.id, {
            ok: false,
            error: { code: error.code, message: error.message, details: error.details },
          });
        } else throw error;
      }
    })();
  }
}

/** A wire event envelope for this window. */
export function wireEvent(
  kind: string,
  payload: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: "data_model/AnnaAppEvent",
    kind,
    window_uuid: WINDOW_UUID,
    app_id: "app-1",
    version_id: "dev",
    ts: 1714291200,
    payload,
    ...extra,
  };
}

/** An unsigned JWT-shaped token expiring at `expSeconds` (the SDK reads `exp`, the host verifies). */
export function jwtExpiringAt(expSeconds: number, label = "x"): string {
  const encode = (value: unknown): string =>
    Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "EdDSA", typ: "JWT" })}.${encode({ exp: expSeconds, wid: WINDOW_UUID, l: label })}.sig`;
}
