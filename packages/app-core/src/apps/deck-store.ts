// The pinned deck ("我的 Apps", R158): one ordered list of app ids per user, shared by all of the
// user's apps. The rules (pin, unpin, reorder) are pure functions over the list, so the memory
// store and the server's database store apply the same ones inside their own atomic update.
import { HostApiError } from "../errors/host-api-error.js";

/** A change to a deck: the new list, or `undefined` when nothing changes. May throw. */
export type DeckChange = (deck: readonly string[]) => string[] | undefined;

export interface DeckUpdate {
  deck: string[];
  changed: boolean;
}

/** Async so a database fits. */
export interface DeckStore {
  get(userId: string): Promise<string[]>;
  /** Applies `change` atomically to the user's deck (a missing deck is empty). */
  update(userId: string, change: DeckChange): Promise<DeckUpdate>;
}

/** Pins at the end (or at `position`); pinning a pinned app changes nothing. */
export function pinApp(appId: string, position?: number): DeckChange {
  return (deck) => {
    if (deck.includes(appId)) return undefined;
    const at = position === undefined ? deck.length : Math.min(Math.max(position, 0), deck.length);
    return [...deck.slice(0, at), appId, ...deck.slice(at)];
  };
}

export function unpinApp(appId: string): DeckChange {
  return (deck) => (deck.includes(appId) ? deck.filter((id) => id !== appId) : undefined);
}

/** `order` must be exactly the pinned ids, each once (R158: "full list of app ids"). */
export function reorderDeck(order: readonly string[]): DeckChange {
  return (deck) => {
    const same =
      order.length === deck.length &&
      new Set(order).size === order.length &&
      order.every((id) => deck.includes(id));
    if (!same) {
      throw new HostApiError(
        "invalid_arg",
        `apps.deck.reorder takes the full list of pinned app ids, each once; the deck is [${deck.join(", ")}]`,
        { deck: [...deck] },
      );
    }
    return order.some((id, i) => deck[i] !== id) ? [...order] : undefined;
  };
}
