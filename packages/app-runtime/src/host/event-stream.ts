// The page's one EventSource on the runtime event stream (`<apiBase>/events/stream`): the iframe
// cannot hold it (it has no cookies), so the page applies each `data_model/AnnaAppEvent` to its
// frames and relays it to the iframes it concerns. EventSource reconnects by itself with
// `Last-Event-ID`, and the server replays what the page missed; when it no longer has it, it
// sends `anna.resync` (app-core's runtime-event-stream.ts, D-core-38) and the page lists its
// windows again (`onResync`).
import type { RuntimeEvent } from "./event-relay.js";
import type { HostReport } from "./window-host.js";

/** The SSE event name the runtime stream sends every AnnaAppEvent under. */
export const RUNTIME_EVENT_NAME = "data_model/AnnaAppEvent";
/** The SSE event name of the frame that says events the page missed are gone from the log. */
export const RUNTIME_RESYNC_EVENT_NAME = "anna.resync";

/** What an `anna.resync` frame says: the page's cursor and where the stream went on from. */
export interface RuntimeResync {
  reason: "expired" | "unknown_cursor" | (string & {});
  after: number;
  resumed_at: number;
}

export interface FollowOptions {
  /** Sees each event before the host applies and relays it. */
  onEvent?: (event: RuntimeEvent) => void;
  /**
   * The stream resumed past events the server no longer keeps: what the page shows may be stale,
   * so list the windows again. Without it the page goes on with what it has.
   */
  onResync?: (resync: RuntimeResync) => void;
  /** Another EventSource (credentials, a polyfill); default `new EventSource(url)`. */
  eventSource?: (url: string) => EventSource;
}

/** What the stream follower needs of the host. */
export interface EventSink {
  readonly client: { readonly eventsUrl: string };
  applyEvent(event: RuntimeEvent): void;
}

export function followRuntimeEvents(
  host: EventSink,
  options: FollowOptions,
  report: (report: HostReport) => void,
): () => void {
  const url = host.client.eventsUrl;
  const source = options.eventSource?.(url) ?? new EventSource(url);
  source.addEventListener(RUNTIME_EVENT_NAME, (message) => {
    const data = (message as MessageEvent<string>).data;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch (error) {
      report({ kind: "bad_event", reason: `not JSON: ${String(error)}`, data });
      return;
    }
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      report({ kind: "bad_event", reason: "not an AnnaAppEvent object", data });
      return;
    }
    options.onEvent?.(event as RuntimeEvent);
    host.applyEvent(event as RuntimeEvent);
  });
  const onResync = options.onResync;
  if (onResync !== undefined) {
    source.addEventListener(RUNTIME_RESYNC_EVENT_NAME, (message) => {
      const data = (message as MessageEvent<string>).data;
      let resync: RuntimeResync;
      try {
        resync = JSON.parse(data) as RuntimeResync;
      } catch (error) {
        report({ kind: "bad_event", reason: `resync not JSON: ${String(error)}`, data });
        return;
      }
      onResync(resync);
    });
  }
  return () => source.close();
}
