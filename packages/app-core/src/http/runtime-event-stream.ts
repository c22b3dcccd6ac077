// The runtime event stream's frames (U34): every AnnaAppEvent under `data_model/AnnaAppEvent`,
// with `id:` its number in the user's event log when the bus is sequenced, so EventSource's own
// reconnect (it sends `Last-Event-ID`) resumes where it stopped. The stream is filtered by app
// in the feed, not at the bus, so the feed sees every number and a filtered-out event is not
// mistaken for a gap. `event: anna.resync` tells the client events it missed are gone from the
// log (D-core-38): it should list its windows again.
import { ANNA_APP_EVENT_TYPE, type AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import { type EventBus, eventMatches } from "../events/event-bus.js";
import { EventFeed, type EventFeedGap } from "../events/event-feed.js";
import { HttpError } from "./http-error.js";
import type { SseClient } from "./sse-streams.js";

/** The SSE event name of the frame that says the client missed events the log no longer has. */
export const RESYNC_EVENT_NAME = "anna.resync";

/** Where the stream's events come from: a bus, sequenced or not. */
export type RuntimeEventSource = Pick<EventBus, "subscribe" | "onReconnect" | "log">;

function eventFrame(event: AnnaAppEvent, seq: number | undefined): string {
  const id = seq === undefined ? "" : `id: ${seq}\n`;
  return `event: ${ANNA_APP_EVENT_TYPE}\ndata: ${JSON.stringify(event)}\n${id}\n`;
}

function resyncFrame(gap: EventFeedGap): string {
  return `event: ${RESYNC_EVENT_NAME}\ndata: ${JSON.stringify({
    reason: gap.reason,
    after: gap.after,
    resumed_at: gap.resumedAt,
  })}\n\n`;
}

/**
 * The cursor a client resumes from: `Last-Event-ID` (EventSource's reconnects) or `?after=`
 * (a first connection that knows where it was). Empty or absent: a fresh stream.
 */
export function eventCursor(
  header: string | undefined,
  query: string | undefined,
): number | undefined {
  for (const [raw, what] of [
    [header, "Last-Event-ID"],
    [query, "after"],
  ] as const) {
    if (raw === undefined || raw.trim() === "") continue;
    if (!/^\d{1,15}$/.test(raw.trim())) {
      throw new HttpError(
        "invalid_arg",
        `${what} must be the id of the last event received, a whole number of 0 or more (got ${JSON.stringify(raw.slice(0, 40))}); leave it out for a fresh stream`,
      );
    }
    return Number(raw.trim());
  }
  return undefined;
}

/** Writes the user's events to `client` until it closes, replaying from `cursor` when it can. */
export function pipeRuntimeEvents(
  events: RuntimeEventSource,
  client: SseClient,
  target: { userId: string; appId?: string | undefined; cursor: number | undefined },
  logger: Logger,
): void {
  const { userId, appId } = target;
  const filter = appId === undefined ? { userId } : { userId, appId };
  const log = events.log;
  if (log === undefined) {
    const unsubscribe = events.subscribe(filter, (event) =>
      client.write(eventFrame(event, undefined)),
    );
    client.on("close", unsubscribe);
    return;
  }
  const feed = new EventFeed(
    target.cursor,
    log,
    userId,
    (event) => eventMatches(filter, event),
    {
      event: (event, seq) => client.write(eventFrame(event, seq)),
      gap: (gap) => {
        logger.info("event stream resumed past events no longer logged; the client resyncs", {
          userId,
          ...gap,
        });
        client.write(resyncFrame(gap));
      },
    },
    logger,
  );
  const unsubscribe = events.subscribe({ userId }, (event, seq) => feed.live(event, seq));
  const unwatch = events.onReconnect?.(() => feed.catchUp());
  feed.start();
  client.on("close", () => {
    feed.close();
    unsubscribe();
    unwatch?.();
  });
}
