import type { DeckStore } from "./deck-store.js";

/** The memory DeckStore of the harness and tests; not persisted across restarts. */
export function createMemoryDeckStore(): DeckStore {
  const decks = new Map<string, string[]>();
  return {
    get(userId) {
      return Promise.resolve([...(decks.get(userId) ?? [])]);
    },
    update(userId, change) {
      try {
        const next = change(decks.get(userId) ?? []);
        if (next !== undefined) decks.set(userId, [...next]);
        return Promise.resolve({
          deck: [...(decks.get(userId) ?? [])],
          changed: next !== undefined,
        });
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}
