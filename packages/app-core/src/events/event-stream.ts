// `EventBus.stream` on top of any bus's `subscribe`: a bounded queue between the listener (called
// synchronously on publish) and an async consumer (an SSE response), so every bus, in process or
// over NATS, lags and drops the same way.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import type { EventFilter, EventListener } from "./event-bus.js";

/** Events a slow async-iterable consumer may lag behind before the oldest are dropped. */
export const EVENT_STREAM_BUFFER_MAX = 1024;

export function streamEvents(
  subscribe: (filter: EventFilter, listener: EventListener) => () => void,
  filter: EventFilter,
  options: { signal?: AbortSignal } = {},
  logger: Logger,
): AsyncIterable<AnnaAppEvent> {
  return {
    [Symbol.asyncIterator]() {
      const queue: AnnaAppEvent[] = [];
      let wake: (() => void) | undefined;
      let done = options.signal?.aborted === true;
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
      options.signal?.addEventListener("abort", finish, { once: true });
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
          options.signal?.removeEventListener("abort", finish);
          finish();
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
}
