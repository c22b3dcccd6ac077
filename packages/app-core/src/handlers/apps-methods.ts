// `apps.*` (R158): browse and launch the user's installed apps and curate the pinned deck. The
// catalogue is the dispatcher's own app plus whatever the host's `AppsCatalog` lists; launching
// the own app opens a window through the same WindowManager path as REST `POST
// /runtime/windows` (so `open_view` is emitted and single-instance views dedup); other apps go
// through the catalogue's `launch`. Deck mutations emit `deck_changed` to every window of the
// user (the deck is per user, not per app). The Reference gives no argument names; ours are in
// docs/app-core.md.
import type { InstalledApp } from "@anna-ai/app-schema";
import { pinApp, reorderDeck, unpinApp, type DeckChange } from "../apps/deck-store.js";
import { findApp } from "../apps/installed-apps.js";
import { HostApiError } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { windowView } from "./window-view.js";

async function installed(ctx: CallContext): Promise<InstalledApp[]> {
  const others = (await ctx.core.apps?.list(ctx.window.userId)) ?? [];
  const self = ctx.core.selfApp;
  return [self, ...others.filter((app) => app.app_id !== self.app_id)];
}

async function deckAnswer(ctx: CallContext) {
  const apps = await installed(ctx);
  const ids = await ctx.core.deck.get(ctx.window.userId);
  return {
    app_ids: ids,
    apps: ids
      .map((id) => apps.find((app) => app.app_id === id))
      .filter((app): app is InstalledApp => app !== undefined),
  };
}

/** Applies a deck change; a real change is broadcast to the user's windows as `deck_changed`. */
async function changeDeck(ctx: CallContext, action: string, change: DeckChange) {
  const { deck, changed } = await ctx.core.deck.update(ctx.window.userId, change);
  if (changed) emitDeckChanged(ctx, action, deck);
  return { ...(await deckAnswer(ctx)), changed };
}

function emitDeckChanged(ctx: CallContext, action: string, appIds: string[]): void {
  ctx.core.emit(
    ctx.window.userId,
    makeEvent(
      "deck_changed",
      { appId: ctx.core.appId, versionId: ctx.core.versionId },
      { action, app_ids: appIds },
      ctx.core.clock(),
    ),
  );
}

export function appsMethods(): MethodTable {
  return {
    "apps.list": contractMethod("apps.list", async (_args, ctx) => ({
      apps: await installed(ctx),
    })),
    "apps.search": contractMethod("apps.search", async ({ query }, ctx) => {
      const needle = query.trim().toLowerCase();
      if (needle === "")
        throw new HostApiError("invalid_arg", "apps.search needs a non-empty query");
      const apps = await installed(ctx);
      return {
        apps: apps.filter(
          (app) =>
            app.name.toLowerCase().includes(needle) || app.slug.toLowerCase().includes(needle),
        ),
      };
    }),
    "apps.get": contractMethod("apps.get", async ({ app_ref }, ctx) => ({
      app: findApp(await installed(ctx), app_ref),
    })),
    "apps.launch": contractMethod("apps.launch", async ({ app_ref, view, payload }, ctx) => {
      const app = findApp(await installed(ctx), app_ref);
      if (view !== undefined && !app.views.some((v) => v.name === view)) {
        throw new HostApiError(
          "invalid_arg",
          `${app.slug} has no view ${JSON.stringify(view)}; its views are ${app.views.map((v) => v.name).join(", ")}`,
          { view },
        );
      }
      const request = {
        userId: ctx.window.userId,
        ...(view === undefined ? {} : { view }),
        ...(payload === undefined ? {} : { payload }),
        conversationSessionUuid: ctx.window.conversationSessionUuid,
        source: "apps.launch",
      };
      if (app.app_id === ctx.core.selfApp.app_id) {
        const opened = await ctx.core.windows.open(request);
        return { ...windowView(opened.window), reused: opened.reused };
      }
      const launch = ctx.core.apps?.launch;
      if (launch === undefined) {
        throw new HostApiError(
          "not_implemented",
          `apps.launch: this host cannot open windows of ${app.slug}, only of ${ctx.core.selfApp.slug}`,
          { app_id: app.app_id },
        );
      }
      return launch(app, request);
    }),
    "apps.deck.list": contractMethod("apps.deck.list", async (_args, ctx) => deckAnswer(ctx)),
    "apps.deck.add": contractMethod("apps.deck.add", async ({ app_ref, position }, ctx) => {
      const app = findApp(await installed(ctx), app_ref);
      return changeDeck(ctx, "add", pinApp(app.app_id, position));
    }),
    "apps.deck.remove": contractMethod("apps.deck.remove", async ({ app_ref }, ctx) => {
      // An unpinned or uninstalled app can still be unpinned by id: the deck may outlive it.
      const ref = String(app_ref);
      const id =
        (await installed(ctx)).find((a) => a.app_id === ref || a.slug === ref)?.app_id ?? ref;
      return changeDeck(ctx, "remove", unpinApp(id));
    }),
    "apps.deck.reorder": contractMethod("apps.deck.reorder", async ({ app_ids }, ctx) =>
      changeDeck(ctx, "reorder", reorderDeck(app_ids.map(String))),
    ),
  };
}
