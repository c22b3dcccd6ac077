import type { Logger } from "@anna-ai/jsonrpc";
import { HostApiError, hostApiErrorFromWire, SDK_ERROR_CODES } from "./errors.js";
import { decodeHostMessage, encodeRequest, type HostMessage } from "./wire.js";

/** What the bridge needs of a window: `window` in a browser, a fake in tests. */
export interface PostTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface MessageEventLike {
  readonly data: unknown;
  readonly source: unknown;
  readonly origin: string;
}

export type MessageListener = (event: MessageEventLike) => void;

export interface BridgeWindow {
  readonly parent: PostTarget;
  addEventListener(type: "message", listener: MessageListener): void;
  removeEventListener(type: "message", listener: MessageListener): void;
}

export interface BridgeOptions {
  self: BridgeWindow;
  /** The host page's origin: the target of every post and the only origin answers come from. */
  hostOrigin: string;
  windowUuid: string;
  /** Read at send time, so a refreshed token applies to the next call. */
  token: () => string;
  logger: Logger;
  /** Events relayed by the page (responses are consumed by the bridge). */
  onEvent: (message: Exclude<HostMessage, { kind: "response" } | { kind: "ignored" }>) => void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: HostApiError): void;
}

/**
 * The iframe end of the postMessage RPC: correlates ids, enforces timeouts and checks that every
 * answer comes from `window.parent` at the host origin. A minimal correlation table rather than
 * `RpcPeer`: the wire is the spec's `{id, ns, method, args}` → `{id, ok, result|error}`, not
 * JSON-RPC 2.0, and the iframe never serves calls (D-runtime-1).
 */
export class Bridge {
  readonly #options: BridgeOptions;
  readonly #pending = new Map<string, Pending>();
  readonly #listener: MessageListener;
  readonly #idPrefix: string;
  #nextId = 1;
  #closed = false;

  constructor(options: BridgeOptions) {
    this.#options = options;
    // Ids are unique per page load, so answers meant for a previous load of this iframe miss.
    this.#idPrefix = `${Math.random().toString(36).slice(2, 10)}-`;
    this.#listener = (event) => this.#onMessage(event);
    options.self.addEventListener("message", this.#listener);
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Send one request; resolves with `result`, rejects with a HostApiError. `resendEveryMs`
   * re-posts the identical message until an answer comes (for `window.hello`, which may be sent
   * before the host page listens); the page sees the same id again and answers each.
   */
  request(
    ns: string,
    method: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
    resendEveryMs?: number,
  ): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(
        new HostApiError(SDK_ERROR_CODES.CLOSED, "the runtime is closed", { ns, method }),
      );
    }
    if (signal?.aborted === true) {
      return Promise.reject(
        new HostApiError(SDK_ERROR_CODES.CANCELLED, `${ns}.${method} was aborted`, { ns, method }),
      );
    }
    const id = `${this.#idPrefix}${this.#nextId++}`;
    const { windowUuid, hostOrigin } = this.#options;
    const message = encodeRequest({
      id,
      window_uuid: windowUuid,
      token: this.#options.token(),
      ns,
      method,
      args,
      timeout_ms: timeoutMs,
    });
    return new Promise<unknown>((resolve, reject) => {
      let resend: ReturnType<typeof setInterval> | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        clearInterval(resend);
        signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new HostApiError(
            SDK_ERROR_CODES.TIMEOUT,
            `${ns}.${method} got no answer within ${timeoutMs} ms`,
            {
              ns,
              method,
              timeout_ms: timeoutMs,
            },
          ),
        );
      }, timeoutMs);
      const onAbort = (): void => {
        finish();
        reject(
          new HostApiError(
            SDK_ERROR_CODES.CANCELLED,
            `${ns}.${method} was aborted`,
            { ns, method },
            { cause: signal?.reason },
          ),
        );
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      try {
        this.#options.self.parent.postMessage(message, hostOrigin);
        if (resendEveryMs !== undefined && this.#pending.has(id)) {
          // The same message, same id: a post the page was not yet listening for is simply lost.
          resend = setInterval(() => {
            try {
              this.#options.self.parent.postMessage(message, hostOrigin);
            } catch {
              // It was posted once already; the first post's outcome stands.
            }
          }, resendEveryMs);
        }
      } catch (error) {
        // DataCloneError: functions, symbols or DOM nodes in `args`.
        this.#pending
          .get(id)
          ?.reject(
            new HostApiError(
              SDK_ERROR_CODES.INVALID_ARG,
              `${ns}.${method}: args cannot be posted to the host`,
              { ns, method },
              { cause: error },
            ),
          );
      }
    });
  }

  /** Stop listening and reject everything pending with `closed`. Idempotent. */
  close(reason = "the runtime was closed"): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#options.self.removeEventListener("message", this.#listener);
    for (const pending of [...this.#pending.values()]) {
      pending.reject(new HostApiError(SDK_ERROR_CODES.CLOSED, reason));
    }
  }

  #onMessage(event: MessageEventLike): void {
    const { self, hostOrigin, logger } = this.#options;
    // The iframe's only peer is its parent: a message from any other window (a popup, a nested
    // frame, another app's iframe) is not ours to trust, whatever it claims.
    if (event.source !== self.parent) {
      if (decodeHostMessage(event.data).kind !== "ignored") {
        logger.warn(
          "app-runtime: dropped a host-shaped message from a window other than the parent",
          {
            origin: event.origin,
          },
        );
      }
      return;
    }
    if (hostOrigin !== "*" && event.origin !== hostOrigin) {
      logger.warn("app-runtime: dropped a message from an unexpected origin", {
        origin: event.origin,
        expected: hostOrigin,
      });
      return;
    }
    const decoded = decodeHostMessage(event.data);
    switch (decoded.kind) {
      case "ignored":
        return;
      case "response": {
        const pending = this.#pending.get(decoded.id);
        if (pending === undefined) {
          logger.debug("app-runtime: an answer for no pending call", { id: decoded.id });
          return;
        }
        if (decoded.ok) pending.resolve(decoded.result);
        else pending.reject(hostApiErrorFromWire(decoded.error));
        return;
      }
      default:
        this.#options.onEvent(decoded);
    }
  }
}
