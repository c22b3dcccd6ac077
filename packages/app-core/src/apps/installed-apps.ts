// The user's installed apps as `apps.*` sees them (R158): a catalogue the host provides, the
// `app_ref` rules (numeric id or `@handle/slug`), and the pinned deck ("我的 Apps") kept in
// memory per user. The dispatcher's own app is always installed; a host (the dev harness, the
// server) may list more through `AppsCatalog`.
import type { AppManifest, InstalledApp } from "@anna-ai/app-schema";
import { HostApiError } from "../errors/host-api-error.js";

export interface AppLaunchRequest {
  userId: string;
  view?: string;
  payload?: unknown;
  conversationSessionUuid: string | null;
  source: string;
}

export interface AppsCatalog {
  /** Installed, enabled apps of `userId`, besides the dispatcher's own app. */
  list(userId: string): Promise<readonly InstalledApp[]> | readonly InstalledApp[];
  /**
   * Opens a window of another app through the host's window runtime (the path of REST
   * `POST /runtime/windows`, which emits `open_view`). Without it only the dispatcher's own app
   * can be launched.
   */
  launch?(app: InstalledApp, request: AppLaunchRequest): Promise<Record<string, unknown>>;
}

/** The dispatcher's own app as a catalogue entry, from its manifest. */
export function selfApp(
  manifest: AppManifest,
  appId: string,
  versionId: string,
  name?: string,
): InstalledApp {
  const named = manifest as { name?: unknown; display_name?: unknown; description?: unknown };
  const title =
    name ??
    (typeof named.display_name === "string" ? named.display_name : undefined) ??
    (typeof named.name === "string" ? named.name : undefined) ??
    appId;
  return {
    app_id: appId,
    slug: appId,
    name: title,
    description: typeof named.description === "string" ? named.description : null,
    version_id: versionId,
    views: (manifest.ui?.views ?? []).map((v) => ({
      name: v.name,
      title: v.title ?? null,
      ...(v.default === true ? { default: true } : {}),
    })),
  };
}

/**
 * `app_ref` (R158): a numeric id (number or digit string) or `@handle/slug`. A bare slug is also
 * accepted (the dev harness has no ids or handles). Unknown → `not_found`.
 */
export function findApp(apps: readonly InstalledApp[], ref: string | number): InstalledApp {
  const text = String(ref).trim();
  const handled = /^@([^/]+)\/(.+)$/.exec(text);
  const found = apps.find((app) =>
    handled === null
      ? app.app_id === text || app.slug === text
      : app.slug === handled[2] && (app.handle ?? null) === handled[1],
  );
  if (found === undefined) {
    throw new HostApiError(
      "not_found",
      `no installed app ${JSON.stringify(ref)}; apps.list shows the installed ones (app_ref is an id or @handle/slug)`,
      { app_ref: ref },
    );
  }
  return found;
}

/** The pinned deck per user, in order. In memory: the server keeps it in its database. */
export class AppDeck {
  readonly #decks = new Map<string, string[]>();

  list(userId: string): string[] {
    return [...(this.#decks.get(userId) ?? [])];
  }

  /** Pins at the end (or at `position`); pinning a pinned app is a no-op. True when changed. */
  add(userId: string, appId: string, position?: number): boolean {
    const deck = this.list(userId);
    if (deck.includes(appId)) return false;
    const at = position === undefined ? deck.length : Math.min(Math.max(position, 0), deck.length);
    deck.splice(at, 0, appId);
    this.#decks.set(userId, deck);
    return true;
  }

  remove(userId: string, appId: string): boolean {
    const deck = this.list(userId);
    const at = deck.indexOf(appId);
    if (at === -1) return false;
    deck.splice(at, 1);
    this.#decks.set(userId, deck);
    return true;
  }

  /** `order` must be exactly the pinned ids, each once (R158: "full list of app ids"). */
  reorder(userId: string, order: readonly string[]): boolean {
    const deck = this.list(userId);
    const same =
      order.length === deck.length &&
      new Set(order).size === order.length &&
      order.every((id) => deck.includes(id));
    if (!same) {
      throw new HostApiError(
        "invalid_arg",
        `apps.deck.reorder takes the full list of pinned app ids, each once; the deck is [${deck.join(", ")}]`,
        { deck },
      );
    }
    const changed = order.some((id, i) => deck[i] !== id);
    this.#decks.set(userId, [...order]);
    return changed;
  }
}
