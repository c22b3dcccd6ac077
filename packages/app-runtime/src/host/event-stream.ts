// The page's one EventSource on the runtime event stream (`<apiBase>/events/stream`): the iframe
// cannot hold it (it has no cookies), so the page applies each `data_model/AnnaAppEvent` to its
// frames and relays it to the iframes it concerns.
import type { RuntimeEvent } from "./event-relay.js";
import type { HostReport } from "./window-host.js";

/** The SSE event name the runtime stream sends every AnnaAppEvent under. */
export const RUNTIME_EVENT_NAME = "data_model/AnnaAppEvent";

export interface FollowOptions {
  /** Sees each event before the host applies and relays it. */
  onEvent?: (event: RuntimeEvent) => void;
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
  return () => source.close();
}
