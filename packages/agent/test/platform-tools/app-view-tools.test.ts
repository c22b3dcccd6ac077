import { createDispatcher, type Dispatcher } from "@anna-ai/app-core";
import { AppManifestSchema } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { appViewTools } from "../../src/platform-tools/app-views/app-view-tools.js";
import {
  AppViewError,
  type AppViews,
  dispatcherAppViews,
} from "../../src/platform-tools/app-views/app-views.js";
import { context, fails, ok } from "./helpers.js";

const USER = "u_alice";

/** app-core's real dispatcher (the one Nexus runs on SQL stores), with the memory window store. */
function dispatcher(): Dispatcher {
  const manifest = AppManifestSchema.parse({
    schema: 2,
    ui: {
      bundle: { entry: "index.html" },
      views: [
        { name: "main", title: "Research Workspace", default: true },
        { name: "chart_preview", title: "Chart Preview", single_instance: true },
      ],
      host_api: {},
    },
  });
  return createDispatcher({ manifest, appId: "research-suite", userId: USER });
}

const APPS = [
  { appId: "research-suite", views: [{ name: "main", default: true }, { name: "chart_preview" }] },
  { appId: "notes", views: [] },
];

describe("app view tools", () => {
  it("are offered only when an activated app declares views", () => {
    const views = dispatcherAppViews(dispatcher());
    expect(appViewTools({ views, apps: [{ appId: "notes", views: [] }] })).toEqual([]);
    const tools = appViewTools({ views, apps: APPS });
    expect(tools.map((t) => t.name)).toEqual([
      "open_app_view",
      "update_app_view",
      "close_app_view",
    ]);
    const schema = tools[0]?.parameters as { properties: { app_id: { enum: string[] } } };
    expect(schema.properties.app_id.enum).toEqual(["research-suite"]);
  });

  it("open, update and close a window through the app runtime's dispatcher", async () => {
    const runtime = dispatcher();
    const tools = appViewTools({ views: dispatcherAppViews(runtime), apps: APPS });
    const opened = await ok(tools, "open_app_view", {
      app_id: "research-suite",
      payload: { topic: "ECM" },
    });
    expect(opened).toMatchObject({
      status: "active",
      view: "main",
      entry_payload: { topic: "ECM" },
      reused: false,
    });
    const wid = opened.window_uuid as string;
    const window = await runtime.getWindow(wid);
    expect(window).toMatchObject({ conversation_session_uuid: "conv_1", view: "main" });

    const updated = await ok(tools, "update_app_view", {
      window_uuid: wid,
      title: "Research: ECM",
      runtime_state_patch: { progress: 0.6 },
    });
    expect(updated).toMatchObject({ title: "Research: ECM", runtime_state: { progress: 0.6 } });
    await ok(tools, "update_app_view", {
      window_uuid: wid,
      runtime_state_patch: { status: "ready" },
    });
    expect((await runtime.getWindow(wid))?.runtime_state).toEqual({
      progress: 0.6,
      status: "ready",
    });

    expect(await ok(tools, "close_app_view", { window_uuid: wid, reason: "task_done" })).toEqual({
      window_uuid: wid,
      status: "closed",
    });
    expect((await runtime.getWindow(wid))?.status).toBe("closed");
    // Idempotent: a second close succeeds.
    await ok(tools, "close_app_view", { window_uuid: wid });
  });

  it("focuses the existing window of a single-instance view", async () => {
    const tools = appViewTools({ views: dispatcherAppViews(dispatcher()), apps: APPS });
    const first = await ok(tools, "open_app_view", {
      app_id: "research-suite",
      view: "chart_preview",
    });
    const again = await ok(tools, "open_app_view", {
      app_id: "research-suite",
      view: "chart_preview",
    });
    expect(again).toMatchObject({ window_uuid: first.window_uuid, reused: true });
  });

  it("refuses views and apps the turn does not offer, and other users' windows", async () => {
    const runtime = dispatcher();
    const tools = appViewTools({ views: dispatcherAppViews(runtime), apps: APPS });
    const view = await fails(tools, "open_app_view", {
      app_id: "research-suite",
      view: "settings",
    });
    expect(view.message).toMatch(/views are main, chart_preview/);
    expect((await fails(tools, "open_app_view", { app_id: "notes" })).code).toBe(
      "INVALID_ARGUMENT",
    );
    const opened = await ok(tools, "open_app_view", { app_id: "research-suite" });
    const other = context("u_mallory");
    const stolen = await fails(
      tools,
      "update_app_view",
      { window_uuid: opened.window_uuid, title: "x" },
      other,
    );
    expect(stolen.code).toBe("not_found");
    expect(
      (await fails(tools, "close_app_view", { window_uuid: opened.window_uuid }, other)).code,
    ).toBe("not_found");
    expect((await runtime.getWindow(opened.window_uuid as string))?.status).toBe("active");
    expect(
      (await fails(tools, "update_app_view", { window_uuid: opened.window_uuid })).message,
    ).toMatch(/at least one of title/);
  });

  it("reports an app the user has not installed with the spec's code", async () => {
    // The dispatcher serves research-suite only: any other app is not installed for this user.
    const tools = appViewTools({
      views: dispatcherAppViews(dispatcher()),
      apps: [{ appId: "uninstalled-app", views: [{ name: "main" }] }],
    });
    const error = await fails(tools, "open_app_view", { app_id: "uninstalled-app" });
    expect(error.code).toBe("app_not_installed");
  });

  it("passes the runtime's bundle_not_ready through to the model", async () => {
    const notReady: AppViews = {
      open: () =>
        Promise.reject(new AppViewError("bundle_not_ready", "version 1.2.0 has no ready bundle")),
      update: () => Promise.reject(new Error("unused")),
      close: () => Promise.reject(new Error("unused")),
    };
    const tools = appViewTools({ views: notReady, apps: APPS });
    expect(await fails(tools, "open_app_view", { app_id: "research-suite" })).toEqual({
      code: "bundle_not_ready",
      message: "version 1.2.0 has no ready bundle",
    });
  });
});
