// Every server-sent event stream a server holds open, bounded two ways: a client that stops
// reading is dropped once its unsent bytes pass a limit (the server would otherwise keep every
// event for it in memory), and the number of streams is capped per route and in total (each
// open stream holds a socket and a subscription). Streams are web ReadableStreams, so they work
// the same under `app.request()` and under @hono/node-server (which reads one chunk at a time and
// waits for the socket to drain: what a stalled client has not taken stays in our queue, where
// it is counted).
import type { Logger } from "@anna-ai/jsonrpc";
import { HttpError } from "./http-error.js";

/** Bytes written to a stream that its client has not taken yet; past this it is dropped. */
export const SSE_CLIENT_BUFFER_MAX_BYTES = 1024 * 1024;
/** Open streams per route (a dashboard tab opens one of each). */
export const SSE_STREAMS_PER_ROUTE_MAX = 16;
/** Open streams in total. */
export const SSE_STREAMS_MAX = 32;
/** SSE comment lines keep idle proxies and EventSource from timing out. */
export const SSE_KEEPALIVE_MS = 15_000;

export interface SseLimits {
  clientBufferMaxBytes: number;
  perRouteMax: number;
  totalMax: number;
  keepaliveMs: number;
}

const DEFAULT_LIMITS: SseLimits = {
  clientBufferMaxBytes: SSE_CLIENT_BUFFER_MAX_BYTES,
  perRouteMax: SSE_STREAMS_PER_ROUTE_MAX,
  totalMax: SSE_STREAMS_MAX,
  keepaliveMs: SSE_KEEPALIVE_MS,
};

/** The headers every event stream answers with. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  Connection: "keep-alive",
});

/** What a stream's writers need: a frame in, the end, and word when the client is gone. */
export interface SseSink {
  write(frame: string): unknown;
  end(): void;
  on(event: "close", listener: () => void): unknown;
}

const encoder = new TextEncoder();

/**
 * The connection under a stream, when the server can reach it (@hono/node-server's
 * `c.env.outgoing`). A dropped client's connection is destroyed through it; without one the
 * stream's body errors, which the node adapter would also turn into a destroyed socket but
 * prints to stderr as a server error.
 */
export interface SseTransport {
  destroy(): void;
}

/** The node:http response under a Hono context, if that is what serves it. */
export function nodeTransportOf(env: unknown): SseTransport | undefined {
  const outgoing = (env as { outgoing?: { destroy?: unknown } } | undefined)?.outgoing;
  return typeof outgoing?.destroy === "function" ? (outgoing as SseTransport) : undefined;
}

/** One open stream: the Response to answer with, and the sink its events are written to. */
export class SseClient implements SseSink {
  readonly response: Response;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    readonly route: string,
    /** Whose stream it is, when the per-route cap is counted per owner. */
    readonly owner: string | undefined,
    private readonly bufferMaxBytes: number,
    private readonly onDrop: (client: SseClient, unsentBytes: number) => void,
    private readonly transport: SseTransport | undefined,
  ) {
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.finish(),
      },
      // desiredSize is then bufferMaxBytes minus the bytes queued and not yet read.
      new ByteLengthQueuingStrategy({ highWaterMark: bufferMaxBytes }),
    );
    this.response = new Response(body, { status: 200, headers: SSE_HEADERS });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes a frame, or drops the client when its unsent bytes are over the limit. */
  write(frame: string): void {
    const controller = this.controller;
    if (this.closed || controller === undefined) return;
    controller.enqueue(encoder.encode(frame));
    const unsent = this.bufferMaxBytes - (controller.desiredSize ?? 0);
    if (unsent > this.bufferMaxBytes) {
      this.onDrop(this, unsent);
      this.finish();
      // Not a clean end: what is queued would wait for a client that does not read.
      if (this.transport !== undefined) this.transport.destroy();
      else controller.error(new Error(`${this.route}: the client stopped reading`));
    }
  }

  /** Ends the stream after what is queued (a graceful close). */
  end(): void {
    if (this.closed) return;
    this.controller?.close();
    this.finish();
  }

  on(_event: "close", listener: () => void): this {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
    return this;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

export class SseStreams {
  private readonly clients = new Set<SseClient>();
  private readonly limits: SseLimits;
  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    limits: Partial<SseLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get size(): number {
    return this.clients.size;
  }

  /** The most streams open at once (`size` counts against it). */
  get capacity(): number {
    return this.limits.totalMax;
  }

  /**
   * Opens a stream of `route`, or throws 429 `too_many_streams` (before any header is sent, so
   * the refusal is an ordinary JSON error). The stream leaves the count when it closes. With
   * `owner` (a user id on a server of many) the per-route cap is that owner's: one person's tabs
   * never use up everyone's streams; the total still bounds the process.
   */
  open(route: string, transport?: SseTransport, owner?: string): SseClient {
    const onRoute = [...this.clients].filter((c) => c.route === route && c.owner === owner).length;
    if (onRoute >= this.limits.perRouteMax || this.clients.size >= this.limits.totalMax) {
      const whose = owner === undefined ? "" : " of yours";
      throw new HttpError(
        "too_many_streams",
        `${route} has ${onRoute} open streams${whose} (at most ${this.limits.perRouteMax}; ${this.clients.size} of ${this.limits.totalMax} in total); close a dashboard tab or a script's stream first`,
      );
    }
    const client = new SseClient(
      route,
      owner,
      this.limits.clientBufferMaxBytes,
      (dropped, unsent) =>
        this.logger.warn("dropped an event stream whose client stopped reading", {
          route: dropped.route,
          unsent_bytes: unsent,
          limit_bytes: this.limits.clientBufferMaxBytes,
        }),
      transport,
    );
    this.clients.add(client);
    client.on("close", () => {
      this.clients.delete(client);
      if (this.clients.size === 0) this.stopKeepalive();
    });
    this.startKeepalive();
    // The first comment line tells the client it is connected.
    client.write(": connected\n\n");
    return client;
  }

  /** Writes `frame` to every open stream. */
  broadcast(frame: string): void {
    for (const client of [...this.clients]) client.write(frame);
  }

  /** Ends every open stream (the server is closing). */
  endAll(): void {
    for (const client of [...this.clients]) client.end();
    this.stopKeepalive();
  }

  private startKeepalive(): void {
    if (this.keepalive !== undefined) return;
    this.keepalive = setInterval(() => this.broadcast(": keepalive\n\n"), this.limits.keepaliveMs);
    this.keepalive.unref();
  }

  private stopKeepalive(): void {
    clearInterval(this.keepalive);
    this.keepalive = undefined;
  }
}
