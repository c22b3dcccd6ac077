// The developer's routes, for the dashboard and scripts: the harness state, the panel stream,
// simulated and page-local events, fixture replays and the page's `?report`.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  isPageKind,
  publishSimulatedEvent,
  recordPageEvent,
  type PageEventDeps,
} from "../dashboard/simulate-event.js";
import type { DevPanel } from "../dev-panel.js";
import { fixtureRoute, type FixtureRouteDeps } from "../fixture-routes.js";
import type { SseStreams } from "../guard/sse-streams.js";
import { readJsonBody, sendJson } from "../http-util.js";

export interface DevRouteDeps {
  /** What `/dev/api/state` answers and the dashboard page boots with. */
  devState(): Promise<Record<string, unknown>>;
  panel: DevPanel;
  streams: SseStreams;
  pageEvents: PageEventDeps;
  fixtures: FixtureRouteDeps;
  reportListeners: ReadonlySet<(report: unknown) => void>;
}

/** Handles the developer routes; false for any other request. */
export async function devRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: DevRouteDeps,
): Promise<boolean> {
  const p = url.pathname;
  const method = req.method ?? "GET";
  if (p === "/dev/api/state" && method === "GET") {
    sendJson(res, 200, await deps.devState());
    return true;
  }
  if (p === "/dev/stream" && method === "GET") {
    // A reconnecting EventSource names the last call it got; that wins over its page's boot `after`.
    const lastId = req.headers["last-event-id"];
    const after = Number(
      (typeof lastId === "string" && lastId !== "" ? lastId : undefined) ??
        url.searchParams.get("after") ??
        Number.NaN,
    );
    deps.streams.open(res, p);
    deps.panel.attach(res, Number.isInteger(after) && after >= 0 ? after : undefined);
    return true;
  }
  if (p === "/dev/api/events" && method === "POST") {
    const body = await readJsonBody(req);
    if (isPageKind(body)) {
      sendJson(res, 200, { page_event: await recordPageEvent(deps.pageEvents, body) });
      return true;
    }
    const { dispatcher, userId } = deps.pageEvents;
    const event = await publishSimulatedEvent(dispatcher, userId, body);
    sendJson(res, 202, { event });
    return true;
  }
  if (await fixtureRoute(req, res, p, deps.fixtures)) return true;
  if (p === "/dev/api/report" && method === "POST") {
    const report = await readJsonBody(req);
    for (const listener of deps.reportListeners) listener(report);
    sendJson(res, 200, { ok: true });
    return true;
  }
  return false;
}
