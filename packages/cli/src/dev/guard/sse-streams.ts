// Every server-sent event stream the harness holds open, bounded two ways: a client that stops
// reading is dropped once its unsent bytes pass a limit (the harness would otherwise keep every
// event for it in memory), and the number of streams is capped per route and in total (each
// open stream holds a socket and a subscription).
import type { ServerResponse } from "node:http";
import type { Logger } from "@anna-ai/jsonrpc";
import { HttpError } from "../http-util.js";

/** Bytes written to a stream that its client has not taken yet; past this it is dropped. */
export const SSE_CLIENT_BUFFER_MAX_BYTES = 1024 * 1024;
/** Open streams per route (a dashboard tab opens one of each). */
export const SSE_STREAMS_PER_ROUTE_MAX = 16;
/** Open streams in total. */
export const SSE_STREAMS_MAX = 32;

export interface SseLimits {
  clientBufferMaxBytes: number;
  perRouteMax: number;
  totalMax: number;
}

const DEFAULT_LIMITS: SseLimits = {
  clientBufferMaxBytes: SSE_CLIENT_BUFFER_MAX_BYTES,
  perRouteMax: SSE_STREAMS_PER_ROUTE_MAX,
  totalMax: SSE_STREAMS_MAX,
};

export class SseStreams {
  private readonly routeOf = new Map<ServerResponse, string>();
  private readonly limits: SseLimits;

  constructor(
    private readonly logger: Logger,
    limits: Partial<SseLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get size(): number {
    return this.routeOf.size;
  }

  /**
   * Opens `res` as a stream of `route`, or throws 429 `too_many_streams` (before any header is
   * sent, so the refusal is an ordinary JSON error). The stream leaves the count when it closes.
   */
  open(res: ServerResponse, route: string): void {
    const onRoute = [...this.routeOf.values()].filter((r) => r === route).length;
    if (onRoute >= this.limits.perRouteMax || this.routeOf.size >= this.limits.totalMax) {
      throw new HttpError(
        429,
        "too_many_streams",
        `${route} has ${onRoute} open streams (at most ${this.limits.perRouteMax}; ${this.routeOf.size} of ${this.limits.totalMax} in total); close a dashboard tab or a script's stream first`,
      );
    }
    this.routeOf.set(res, route);
    res.on("close", () => this.routeOf.delete(res));
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    // The first comment line tells the client it is connected.
    this.write(res, ": connected\n\n");
  }

  /** Writes a frame, or drops the client when its unsent bytes are over the limit. */
  write(res: ServerResponse, frame: string): void {
    // Ended by close() but not yet closed: a write now would be an unhandled 'error'.
    if (res.writableEnded || res.destroyed) return;
    res.write(frame);
    if (res.writableLength > this.limits.clientBufferMaxBytes) {
      this.logger.warn("dropped an event stream whose client stopped reading", {
        route: this.routeOf.get(res),
        unsent_bytes: res.writableLength,
        limit_bytes: this.limits.clientBufferMaxBytes,
      });
      res.destroy();
    }
  }

  /** Writes `frame` to every open stream (the keepalive). */
  broadcast(frame: string): void {
    for (const res of this.routeOf.keys()) this.write(res, frame);
  }

  endAll(): void {
    for (const res of this.routeOf.keys()) res.end();
  }
}
