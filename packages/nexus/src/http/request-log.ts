// The first middleware: gives the request its id (X-Request-Id in and out), and once it is
// answered writes its one log line and records it in the node's metrics. Only the path is
// logged, never the query (`?pat=` on dev endpoints), headers or body.
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { HttpMetrics, UNMATCHED_ROUTE } from "../ops/http-metrics.js";
import { REQUEST_ID_HEADER, requestIdFor } from "../ops/request-id.js";
import type { AppDeps, Ctx, Env } from "./context.js";

export function requestObserver(deps: AppDeps): MiddlewareHandler<Env> {
  return async (c, next) => {
    const start = deps.clock.now();
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", requestId);
    // Set before the handler builds its response, so it is part of it; after, only when the
    // handler returned a Response of its own (setting it then copies the response).
    c.header(REQUEST_ID_HEADER, requestId);
    deps.metrics?.started();
    try {
      await next();
    } finally {
      deps.metrics?.finished();
    }
    if (!c.res.headers.has(REQUEST_ID_HEADER)) c.header(REQUEST_ID_HEADER, requestId);
    const ms = deps.clock.now() - start;
    deps.logger.log("info", "request", {
      request_id: requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: ms,
    });
    deps.metrics?.http.observe(c.req.method, routeTemplate(c), c.res.status, ms / 1000);
  };
}

/**
 * The pattern of the route that answered (`/api/v1/chat/conversations/:id`), read after the
 * handlers ran: Hono leaves `routeIndex` on the last one dispatched. A middleware (method ALL,
 * a wildcard path) there means no route took the request.
 */
export function routeTemplate(c: Ctx): string {
  const route = matchedRoutes(c)[c.req.routeIndex];
  if (route === undefined) return UNMATCHED_ROUTE;
  if (route.method === "ALL" && (route.path === "*" || route.path === "/*")) return UNMATCHED_ROUTE;
  return route.path;
}

/** What a node counts of its HTTP traffic (createApp records; the metrics listener reads). */
export class RequestMetrics {
  readonly http = new HttpMetrics();
  private inFlight = 0;

  started(): void {
    this.inFlight += 1;
  }

  finished(): void {
    this.inFlight -= 1;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }
}
