import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import {
  canTransition,
  createMemoryWindowStore,
  MAX_RUNTIME_STATE_BYTES,
  WindowManager,
} from "../../src/index.js";
import { fakeClock, openDispatcher } from "../helpers.js";

function collect(dispatcher: Awaited<ReturnType<typeof openDispatcher>>["dispatcher"]) {
  const seen: AnnaAppEvent[] = [];
  dispatcher.events.subscribe({ userId: dispatcher.userId }, (e) => seen.push(e));
  return seen;
}

describe("window statuses", () => {
  it("allows the documented transitions and keeps closed and crashed terminal", () => {
    expect(canTransition("active", "minimized")).toBe(true);
    expect(canTransition("minimized", "active")).toBe(true);
    expect(canTransition("minimized", "closed")).toBe(true);
    expect(canTransition("active", "crashed")).toBe(true);
    expect(canTransition("minimized", "crashed")).toBe(false);
    expect(canTransition("closed", "active")).toBe(false);
    expect(canTransition("crashed", "active")).toBe(false);
  });

  it("minimises, restores and closes through patchWindow with status_changed and close_view", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    const seen = collect(dispatcher);
    await dispatcher.patchWindow(wid, { status: "minimized" });
    await dispatcher.patchWindow(wid, { status: "active" });
    await dispatcher.closeWindow(wid, "user_closed");
    expect(seen.map((e) => [e.kind, e.payload])).toEqual([
      ["status_changed", { status: "minimized" }],
      ["status_changed", { status: "active" }],
      ["status_changed", { status: "closed" }],
      ["close_view", { window_uuid: wid, reason: "user_closed" }],
    ]);
    await expect(dispatcher.patchWindow(wid, { status: "active" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await dispatcher.listWindows()).toEqual([]);
  });

  it("marks a window crashed on a fatal report_error", async () => {
    const { dispatcher, token, wid } = await openDispatcher({});
    await dispatcher.call(token, "window", "report_error", { message: "x", fatal: true });
    expect(await dispatcher.getWindow(wid)).toMatchObject({ status: "crashed" });
  });
});

describe("opening windows", () => {
  it("opens the default view at its default size and emits open_view", async () => {
    const { dispatcher } = await openDispatcher({});
    const seen = collect(dispatcher);
    const opened = await dispatcher.openWindow(undefined, { payload: { a: 1 }, source: "test" });
    expect(opened.window).toMatchObject({
      view: "main",
      status: "active",
      geometry: { w: 800, h: 600 },
      entry_payload: { a: 1 },
    });
    expect(seen[0]).toMatchObject({
      kind: "open_view",
      window_uuid: opened.window.window_uuid,
      payload: { view: "main", entry_payload: { a: 1 }, source: "test" },
    });
  });

  it("re-opens a single-instance view as the same window, merging the payload and emitting open_view (A6)", async () => {
    const { dispatcher } = await openDispatcher({});
    const first = await dispatcher.openWindow("panel", { payload: { a: 1, b: 1 } });
    await dispatcher.patchWindow(first.window.window_uuid as string, { status: "minimized" });
    const seen = collect(dispatcher);
    const again = await dispatcher.openWindow("panel", { payload: { b: 2 } });
    expect(again.reused).toBe(true);
    expect(again.window.window_uuid).toBe(first.window.window_uuid);
    expect(again.window).toMatchObject({ status: "active", entry_payload: { a: 1, b: 2 } });
    expect(seen.map((e) => e.kind)).toEqual(["status_changed", "open_view"]);
    expect(seen[1]?.payload).toMatchObject({ entry_payload: { a: 1, b: 2 } });
    // Another conversation is another instance; a plain view always opens a new window.
    const elsewhere = await dispatcher.openWindow("panel", { conversationSessionUuid: "c-2" });
    expect(elsewhere.reused).toBe(false);
    const main2 = await dispatcher.openWindow("main");
    expect(main2.reused).toBe(false);
  });

  it("closes a single-instance window of an older app version and opens one at the new", async () => {
    const store = createMemoryWindowStore();
    const seen: AnnaAppEvent[] = [];
    const manager = (versionId: string) =>
      new WindowManager({
        store,
        appId: "7",
        versionId,
        views: [{ name: "main", title: "Main", single_instance: true }],
        stateMerge: "replace",
        clock: () => 1_000,
        emit: (_user, e) => seen.push(e),
      });
    const old = await manager("1.0.0").open({ userId: "u1" });
    const again = await manager("1.0.0").open({ userId: "u1" });
    expect(again.reused).toBe(true);
    seen.length = 0;
    const updated = await manager("1.1.0").open({ userId: "u1" });
    expect(updated.reused).toBe(false);
    expect(updated.window.versionId).toBe("1.1.0");
    expect((await store.get(old.window.windowUuid))?.status).toBe("closed");
    expect(seen.map((e) => [e.kind, e.window_uuid])).toEqual([
      ["status_changed", old.window.windowUuid],
      ["close_view", old.window.windowUuid],
      ["open_view", updated.window.windowUuid],
    ]);
    expect(seen[1]?.payload).toEqual({ window_uuid: old.window.windowUuid, reason: "app_updated" });
  });

  it("opens a fresh single-instance window once the old one is closed", async () => {
    const { dispatcher } = await openDispatcher({});
    const first = await dispatcher.openWindow("panel");
    await dispatcher.closeWindow(first.window.window_uuid as string);
    const second = await dispatcher.openWindow("panel");
    expect(second.reused).toBe(false);
    expect(second.window.window_uuid).not.toBe(first.window.window_uuid);
  });

  it("window.open_view from the bundle dedups too and rejects an unknown view", async () => {
    const { dispatcher, token } = await openDispatcher({});
    const a = await dispatcher.call(token, "window", "open_view", { view: "panel" });
    const b = await dispatcher.call(token, "window", "open_view", {
      view: "panel",
      payload: { x: 1 },
    });
    expect(a.ok && b.ok && a.result).toEqual(b.ok && b.result);
    expect(await dispatcher.call(token, "window", "open_view", { view: "nope" })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });
});

describe("geometry", () => {
  it("clamps window.resize to the view's min and max and reports the size it applied", async () => {
    const { dispatcher, token, wid } = await openDispatcher({});
    expect(await dispatcher.call(token, "window", "resize", { w: 5000, h: 100 })).toEqual({
      ok: true,
      result: { w: 1200, h: 240 },
    });
    expect(await dispatcher.getWindow(wid)).toMatchObject({ geometry: { w: 1200, h: 240 } });
  });

  it("clamps PATCH geometry, keeps positions non-negative and emits geometry_changed", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    const seen = collect(dispatcher);
    const win = await dispatcher.patchWindow(wid, {
      geometry: { x: -40, y: 12.6, w: 10, h: 700, dock_side: "left" },
    });
    expect(win.geometry).toEqual({ x: 0, y: 13, w: 320, h: 700, dock_side: "left" });
    expect(seen).toMatchObject([{ kind: "geometry_changed", payload: { geometry: win.geometry } }]);
  });
});

describe("runtime_state", () => {
  it("lands every one of many concurrent patches (each write compare-and-sets)", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    await Promise.all(
      keys.map((k) => dispatcher.patchWindow(wid, { runtime_state_patch: { [k]: 1 } })),
    );
    const window = (await dispatcher.getWindow(wid)) as { runtime_state: Record<string, unknown> };
    expect(Object.keys(window.runtime_state).sort()).toEqual([...keys].sort());
  });

  it("merges patches shallowly (last_writer_wins) and broadcasts the merged state", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    const seen = collect(dispatcher);
    await dispatcher.patchWindow(wid, { runtime_state_patch: { a: 1, nested: { x: 1 } } });
    await dispatcher.patchWindow(wid, { runtime_state_patch: { b: 2, nested: { y: 2 } } });
    expect((await dispatcher.getWindow(wid))?.runtime_state).toEqual({
      a: 1,
      b: 2,
      nested: { y: 2 },
    });
    expect(seen.at(-1)).toMatchObject({
      kind: "runtime_state_synced",
      payload: { runtime_state: { a: 1, b: 2, nested: { y: 2 } } },
    });
  });

  it("refuses a patch that would exceed 256 KiB with state_too_large and keeps the old state", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    await dispatcher.patchWindow(wid, { runtime_state_patch: { keep: true } });
    // {"keep":true,"big":"…"} — exactly at the cap fits, one byte more does not.
    const overhead = JSON.stringify({ keep: true, big: "" }).length;
    const fits = "x".repeat(MAX_RUNTIME_STATE_BYTES - overhead);
    await dispatcher.patchWindow(wid, { runtime_state_patch: { big: fits } });
    await expect(
      dispatcher.patchWindow(wid, { runtime_state_patch: { big: fits + "x" } }),
    ).rejects.toMatchObject({
      code: "state_too_large",
      details: { max_bytes: MAX_RUNTIME_STATE_BYTES },
    });
    expect((await dispatcher.getWindow(wid))?.runtime_state).toEqual({ keep: true, big: fits });
  });

  it("window.ready broadcasts the hydrated state", async () => {
    const { dispatcher, token, wid } = await openDispatcher({});
    await dispatcher.patchWindow(wid, { runtime_state_patch: { n: 1 } });
    const seen = collect(dispatcher);
    await dispatcher.call(token, "window", "ready");
    expect(seen).toMatchObject([
      { kind: "runtime_state_synced", payload: { runtime_state: { n: 1 } } },
    ]);
  });
});

describe("heartbeat and idle reaping", () => {
  it("closes only windows idle past the limit; a heartbeat or any RPC keeps one alive", async () => {
    const clock = fakeClock();
    const { dispatcher, token, wid } = await openDispatcher(
      {},
      { clock: clock.now, windowIdleMs: 60_000 },
    );
    const idle = await dispatcher.openWindow("panel");
    clock.advance(59_000);
    await dispatcher.call(token, "window", "heartbeat");
    clock.advance(2_000);
    const seen = collect(dispatcher);
    expect(await dispatcher.reapIdle()).toEqual([idle.window.window_uuid]);
    expect(seen.at(-1)).toMatchObject({
      kind: "close_view",
      payload: { window_uuid: idle.window.window_uuid, reason: "idle" },
    });
    expect(await dispatcher.getWindow(wid)).toMatchObject({ status: "active" });
  });
});
