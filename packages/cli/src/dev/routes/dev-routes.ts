// The developer's routes, for the dashboard and scripts: the harness state, the panel stream,
// simulated and page-local events, fixture replays, the page's `?report` and each executa's
// inspector.
import type { Hono } from "hono";
import { jsonResponse, readJsonBody, type SseStreams } from "@anna-ai/app-core/http";
import {
  isPageKind,
  publishSimulatedEvent,
  recordPageEvent,
  type PageEventDeps,
} from "../dashboard/simulate-event.js";
import type { DevPanel } from "../dev-panel.js";
import type { ExecutaInspectors } from "../executa-inspectors.js";
import { addFixtureRoutes, type FixtureRouteDeps } from "../fixture-routes.js";
import type { DevEnv } from "./request-target.js";

export const PANEL_STREAM_ROUTE = "/dev/stream";

export interface DevRouteDeps {
  /** What `/dev/api/state` answers and the dashboard page boots with. */
  devState(): Promise<Record<string, unknown>>;
  panel: DevPanel;
  streams: SseStreams;
  pageEvents: PageEventDeps;
  fixtures: FixtureRouteDeps;
  reportListeners: ReadonlySet<(report: unknown) => void>;
  /** The Inspect button of each executa. */
  inspectors: Pick<ExecutaInspectors, "open">;
}

export function addDevRoutes(app: Hono<DevEnv>, deps: DevRouteDeps): void {
  app.get("/dev/api/state", async () => jsonResponse(200, await deps.devState()));
  app.get(PANEL_STREAM_ROUTE, (c) => {
    // A reconnecting EventSource names the last call it got; that wins over its page's boot `after`.
    const lastId = c.req.header("last-event-id");
    const after = Number(
      (lastId !== undefined && lastId !== "" ? lastId : undefined) ??
        c.req.query("after") ??
        Number.NaN,
    );
    const client = deps.streams.open(PANEL_STREAM_ROUTE, c.env.outgoing);
    deps.panel.attach(client, Number.isInteger(after) && after >= 0 ? after : undefined);
    return client.response;
  });
  app.post("/dev/api/events", async (c) => {
    const body = await readJsonBody(c.req.raw);
    if (isPageKind(body)) {
      return jsonResponse(200, { page_event: await recordPageEvent(deps.pageEvents, body) });
    }
    const { dispatcher, userId } = deps.pageEvents;
    const event = await publishSimulatedEvent(dispatcher, userId, body);
    return jsonResponse(202, { event });
  });
  addFixtureRoutes(app, deps.fixtures);
  // A POST (never a GET a link could trigger), behind the origin guard: it starts a process.
  app.post("/dev/api/executas/:toolId/inspect", async (c) =>
    jsonResponse(200, { inspector: await deps.inspectors.open(c.req.param("toolId")) }),
  );
  app.post("/dev/api/report", async (c) => {
    const report = await readJsonBody(c.req.raw);
    for (const listener of deps.reportListeners) listener(report);
    return jsonResponse(200, { ok: true });
  });
}
