// apps.* (R158): the catalogue (own app + the host's), app_ref resolution, launch through the
// window path (open_view, single-instance dedup), another app's launch through the catalogue, and
// the deck with deck_changed events.
import type { AnnaAppEvent, InstalledApp } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import type { AppLaunchRequest, AppsCatalog } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const NOTES: InstalledApp = {
  app_id: "42",
  slug: "notes",
  handle: "acme",
  name: "Acme Notes",
  views: [{ name: "main", default: true }],
};

function catalog(launched: AppLaunchRequest[] = []): AppsCatalog {
  return {
    list: () => [NOTES],
    launch: async (app, request) => {
      launched.push(request);
      return { window_uuid: "w-notes", app_id: app.app_id };
    },
  };
}

async function setup(apps?: AppsCatalog) {
  const opened = await openDispatcher(
    { apps: ["*"] },
    { appName: "Focus", ...(apps ? { apps } : {}) },
  );
  const events: AnnaAppEvent[] = [];
  opened.dispatcher.events.subscribe({ userId: opened.dispatcher.userId }, (e) => events.push(e));
  return { ...opened, events };
}

describe("apps.*", () => {
  it("lists the own app and the host's, searches and gets by id, @handle/slug or slug", async () => {
    const { dispatcher, token } = await setup(catalog());
    const listed = await dispatcher.call(token, "apps", "list");
    expect(listed).toMatchObject({
      ok: true,
      result: {
        apps: [
          {
            app_id: "app-1",
            name: "Focus",
            views: [{ name: "main", default: true }, { name: "panel" }],
          },
          { app_id: "42", slug: "notes" },
        ],
      },
    });
    expect(await dispatcher.call(token, "apps", "search", { query: "NOTE" })).toMatchObject({
      ok: true,
      result: { apps: [{ app_id: "42" }] },
    });
    for (const ref of [42, "42", "@acme/notes", "notes"]) {
      expect(await dispatcher.call(token, "apps", "get", { app_ref: ref })).toMatchObject({
        ok: true,
        result: { app: { app_id: "42" } },
      });
    }
    expect(await dispatcher.call(token, "apps", "get", { app_ref: "@other/notes" })).toMatchObject({
      ok: false,
      error: { code: "not_found", message: expect.stringContaining("apps.list") },
    });
  });

  it("launches its own app through the window path: open_view, and single-instance dedup", async () => {
    const { dispatcher, token, events } = await setup();
    const first = await dispatcher.call(token, "apps", "launch", {
      app_ref: "app-1",
      view: "panel",
      payload: { from: "launcher" },
    });
    expect(first).toMatchObject({
      ok: true,
      result: {
        view: "panel",
        status: "active",
        entry_payload: { from: "launcher" },
        reused: false,
      },
    });
    const wid = (first as { result: { window_uuid: string } }).result.window_uuid;
    expect(events.filter((e) => e.kind === "open_view").at(-1)).toMatchObject({
      window_uuid: wid,
      payload: { view: "panel", source: "apps.launch" },
    });
    expect(
      await dispatcher.call(token, "apps", "launch", { app_ref: "app-1", view: "panel" }),
    ).toMatchObject({
      ok: true,
      result: { window_uuid: wid, reused: true },
    });
    expect(
      await dispatcher.call(token, "apps", "launch", { app_ref: "app-1", view: "nope" }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: expect.stringContaining("main, panel") },
    });
  });

  it("launches another app through the catalogue, or says the host cannot", async () => {
    const launched: AppLaunchRequest[] = [];
    const withLauncher = await setup(catalog(launched));
    expect(
      await withLauncher.dispatcher.call(withLauncher.token, "apps", "launch", {
        app_ref: "@acme/notes",
      }),
    ).toMatchObject({ ok: true, result: { window_uuid: "w-notes" } });
    expect(launched).toEqual([
      expect.objectContaining({ userId: withLauncher.dispatcher.userId, source: "apps.launch" }),
    ]);
    const listOnly = await setup({ list: () => [NOTES] });
    expect(
      await listOnly.dispatcher.call(listOnly.token, "apps", "launch", { app_ref: "42" }),
    ).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
  });

  it("keeps the deck in order and emits deck_changed for each change", async () => {
    const { dispatcher, token, events } = await setup(catalog());
    expect(await dispatcher.call(token, "apps", "deck.add", { app_ref: "app-1" })).toMatchObject({
      ok: true,
      result: { app_ids: ["app-1"], changed: true },
    });
    expect(
      await dispatcher.call(token, "apps", "deck.add", { app_ref: "@acme/notes", position: 0 }),
    ).toMatchObject({
      ok: true,
      result: { app_ids: ["42", "app-1"], apps: [{ slug: "notes" }, { slug: "app-1" }] },
    });
    expect(await dispatcher.call(token, "apps", "deck.add", { app_ref: "42" })).toMatchObject({
      ok: true,
      result: { changed: false },
    });
    expect(
      await dispatcher.call(token, "apps", "deck.reorder", { app_ids: ["app-1", 42] }),
    ).toMatchObject({
      ok: true,
      result: { app_ids: ["app-1", "42"], changed: true },
    });
    expect(
      await dispatcher.call(token, "apps", "deck.reorder", { app_ids: ["app-1"] }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: expect.stringContaining("full list") },
    });
    expect(await dispatcher.call(token, "apps", "deck.remove", { app_ref: "42" })).toMatchObject({
      ok: true,
      result: { app_ids: ["app-1"], changed: true },
    });
    expect(await dispatcher.call(token, "apps", "deck.list")).toMatchObject({
      ok: true,
      result: { app_ids: ["app-1"] },
    });
    expect(events.filter((e) => e.kind === "deck_changed").map((e) => e.payload)).toEqual([
      { action: "add", app_ids: ["app-1"] },
      { action: "add", app_ids: ["42", "app-1"] },
      { action: "reorder", app_ids: ["app-1", "42"] },
      { action: "remove", app_ids: ["app-1"] },
    ]);
  });

  it("is denied without a grant", async () => {
    const { dispatcher, token } = await openDispatcher({ apps: ["list"] });
    expect(await dispatcher.call(token, "apps", "deck.add", { app_ref: "app-1" })).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
  });
});
