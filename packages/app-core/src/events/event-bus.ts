// The window event bus (F, U34–U37): every AnnaAppEvent is published on its user's channel and
// fanned out to that user's subscribers, optionally narrowed to one app and one window. In
// process now; the server puts a NATS-backed bus behind the same interface.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";

/** Events a slow async-iterable consumer may lag behind before the oldest are dropped. */
export const EVENT_STREAM_BUFFER_MAX = 1024;

export interface EventFilter {
  userId: string;
  appId?: string;
  /**
   * One window's view: events naming this window plus app-wide events (no `window_uuid`) — what
   * the host page relays to that window's iframe (A5).
   */
  windowUuid?: string;
}

export type EventListener = (event: AnnaAppEvent) => void;

export interface EventBus {
  publish(userId: string, event: AnnaAppEvent): void;
  /** Returns the unsubscribe function. A throwing listener is logged; the others still run. */
  subscribe(filter: EventFilter, listener: EventListener): () => void;
  /** The same events as an async iterable (for SSE); ends when `signal` aborts. */
  stream(filter: EventFilter, options?: { signal?: AbortSignal }): AsyncIterable<AnnaAppEvent>;
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
    publish(userId, event) {
      const subs = byUser.get(userId);
      if (subs === undefined) return;
      for (const sub of [...subs]) {
        if (!eventMatches(sub.filter, event)) continue;
        try {
          sub.listener(event);
        } catch (error) {
          logger.error("event listener threw", { kind: event.kind, error: String(error) });
        }
      }
    },
    subscribe,
    stream(filter, streamOptions = {}) {
      return {
        [Symbol.asyncIterator]() {
          const queue: AnnaAppEvent[] = [];
          let wake: (() => void) | undefined;
          let done = streamOptions.signal?.aborted === true;
          const unsubscribe = subscribe(filter, (event) => {
            if (queue.length >= EVENT_STREAM_BUFFER_MAX) {
              queue.shift();
              logger.warn("event stream consumer is behind; dropped the oldest event", {
                userId: filter.userId,
              });
            }
            queue.push(event);
            wake?.();
          });
          const finish = () => {
            done = true;
            unsubscribe();
            wake?.();
          };
          streamOptions.signal?.addEventListener("abort", finish, { once: true });
          if (done) unsubscribe();
          return {
            async next(): Promise<IteratorResult<AnnaAppEvent>> {
              for (;;) {
                const event = queue.shift();
                if (event !== undefined) return { value: event, done: false };
                if (done) return { value: undefined, done: true };
                await new Promise<void>((resolve) => (wake = resolve));
                wake = undefined;
              }
            },
            return(): Promise<IteratorResult<AnnaAppEvent>> {
              streamOptions.signal?.removeEventListener("abort", finish);
              finish();
              return Promise.resolve({ value: undefined, done: true });
            },
          };
        },
      };
    },
  };
}
