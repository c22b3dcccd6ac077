// The window event bus (F, U34–U37): every AnnaAppEvent is published on its user's channel and
// fanned out to that user's subscribers, optionally narrowed to one app and one window. In
// process here; Nexus puts a NATS-backed bus behind the same interface when it runs on several
// nodes.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import type { EventLog } from "./event-log.js";
import { streamEvents } from "./event-stream.js";

export { EVENT_STREAM_BUFFER_MAX, streamEvents } from "./event-stream.js";

export interface EventFilter {
  userId: string;
  appId?: string;
  /**
   * One window's view: events naming this window plus app-wide events (no `window_uuid`) — what
   * the host page relays to that window's iframe (A5).
   */
  windowUuid?: string;
}

/**
 * `seq` is the event's place in its user's event log (event-log.ts) when the bus is sequenced:
 * dense per user, so a listener that sees a jump knows what it missed and can read it back.
 */
export type EventListener = (event: AnnaAppEvent, seq?: number) => void;

export interface EventBus {
  /** `seq` is given by a sequenced bus (event-log.ts) to the bus it delivers through. */
  publish(userId: string, event: AnnaAppEvent, seq?: number): void;
  /** Returns the unsubscribe function. A throwing listener is logged; the others still run. */
  subscribe(filter: EventFilter, listener: EventListener): () => void;
  /** The same events as an async iterable (for SSE); ends when `signal` aborts. */
  stream(filter: EventFilter, options?: { signal?: AbortSignal }): AsyncIterable<AnnaAppEvent>;
  /**
   * Calls `listener` each time the bus is back after it was cut off from the other nodes (events
   * published meanwhile did not reach this node); only a bus across nodes has it.
   */
  onReconnect?(listener: () => void): () => void;
  /** The log of a sequenced bus: what a resumed stream reads back from. */
  readonly log?: EventLog;
  /**
   * A sequenced bus: resolves once every event published so far for `userId` is in the log (or
   * failed to get there), so an answer sent after it acknowledges events a resume can read back.
   */
  settledFor?(userId: string): Promise<void>;
}

export function eventMatches(filter: EventFilter, event: AnnaAppEvent): boolean {
  if (filter.appId !== undefined && String(event.app_id) !== filter.appId) return false;
  if (filter.windowUuid !== undefined) {
    const wid = event.window_uuid ?? undefined;
    if (wid !== undefined && wid !== filter.windowUuid) return false;
  }
  return true;
}

interface Subscription {
  filter: EventFilter;
  listener: EventListener;
}

export function createEventBus(options: { logger?: Logger } = {}): EventBus {
  const logger = options.logger ?? NULL_LOGGER;
  const byUser = new Map<string, Set<Subscription>>();

  function subscribe(filter: EventFilter, listener: EventListener): () => void {
    const sub: Subscription = { filter, listener };
    let subs = byUser.get(filter.userId);
    if (subs === undefined) {
      subs = new Set();
      byUser.set(filter.userId, subs);
    }
    subs.add(sub);
    return () => {
      const current = byUser.get(filter.userId);
      if (current === undefined) return;
      current.delete(sub);
      if (current.size === 0) byUser.delete(filter.userId);
    };
  }

  return {
    publish(userId, event, seq) {
      const subs = byUser.get(userId);
      if (subs === undefined) return;
      for (const sub of [...subs]) {
        if (!eventMatches(sub.filter, event)) continue;
        try {
          sub.listener(event, seq);
        } catch (error) {
          logger.error("event listener threw", { kind: event.kind, error: String(error) });
        }
      }
    },
    subscribe,
    stream: (filter, streamOptions) => streamEvents(subscribe, filter, streamOptions, logger),
  };
}
