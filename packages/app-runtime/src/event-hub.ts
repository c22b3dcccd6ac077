import type { Logger } from "@anna-ai/jsonrpc";

export type EventHandler = (payload: any, wire?: Record<string, unknown>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `on(name, fn)` subscriptions. A throwing handler is logged and never stops the others. */
export class EventHub {
  readonly #handlers = new Map<string, Set<EventHandler>>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  on(name: string, handler: EventHandler): () => void {
    let set = this.#handlers.get(name);
    if (set === undefined) {
      set = new Set();
      this.#handlers.set(name, set);
    }
    // A fresh wrapper per subscription, so subscribing one function twice needs two unsubscribes.
    const entry: EventHandler = (payload, wire) => handler(payload, wire);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit(name: string, payload: unknown, wire?: Record<string, unknown>): void {
    const set = this.#handlers.get(name);
    if (set === undefined) return;
    for (const handler of [...set]) {
      try {
        handler(payload, wire);
      } catch (error) {
        this.#logger.error("app-runtime: an event handler threw", {
          event: name,
          error: String(error),
        });
      }
    }
  }

  clear(): void {
    this.#handlers.clear();
  }
}
