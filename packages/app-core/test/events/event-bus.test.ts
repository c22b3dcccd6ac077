import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { createEventBus, makeEvent } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const NOW = Date.UTC(2026, 0, 1);

function windowEvent(wid: string, appId = "app-1"): AnnaAppEvent {
  return makeEvent(
    "title_changed",
    { windowUuid: wid, appId, versionId: "dev", conversationSessionUuid: null },
    { title: wid },
    NOW,
  );
}

describe("event bus", () => {
  it("delivers a user's events only to that user's subscribers", () => {
    const bus = createEventBus();
    const alice: AnnaAppEvent[] = [];
    const bob: AnnaAppEvent[] = [];
    bus.subscribe({ userId: "alice" }, (e) => alice.push(e));
    bus.subscribe({ userId: "bob" }, (e) => bob.push(e));
    bus.publish("alice", windowEvent("w1"));
    expect(alice).toHaveLength(1);
    expect(bob).toHaveLength(0);
  });

  it("narrows to one window plus app-wide events, and to one app", () => {
    const bus = createEventBus();
    const w1: AnnaAppEvent[] = [];
    const app2: AnnaAppEvent[] = [];
    bus.subscribe({ userId: "u", appId: "app-1", windowUuid: "w1" }, (e) => w1.push(e));
    bus.subscribe({ userId: "u", appId: "app-2" }, (e) => app2.push(e));
    bus.publish("u", windowEvent("w1"));
    bus.publish("u", windowEvent("w2"));
    bus.publish("u", makeEvent("anna_app_tools_changed", { appId: "app-1" }, {}, NOW));
    bus.publish("u", windowEvent("w9", "app-2"));
    expect(w1.map((e) => e.kind)).toEqual(["title_changed", "anna_app_tools_changed"]);
    expect(w1[0]?.window_uuid).toBe("w1");
    expect(app2.map((e) => e.window_uuid)).toEqual(["w9"]);
  });

  it("keeps delivering when one listener throws, and stops after unsubscribe", () => {
    const bus = createEventBus();
    const got: string[] = [];
    bus.subscribe({ userId: "u" }, () => {
      throw new Error("bad listener");
    });
    const off = bus.subscribe({ userId: "u" }, (e) => got.push(e.kind));
    bus.publish("u", windowEvent("w1"));
    off();
    bus.publish("u", windowEvent("w1"));
    expect(got).toEqual(["title_changed"]);
  });

  it("streams events as an async iterable that ends on abort", async () => {
    const bus = createEventBus();
    const controller = new AbortController();
    const iterator = bus
      .stream({ userId: "u" }, { signal: controller.signal })
      [Symbol.asyncIterator]();
    bus.publish("u", windowEvent("w1"));
    const pending = iterator.next();
    expect(await pending).toMatchObject({ done: false, value: { window_uuid: "w1" } });
    const waiting = iterator.next();
    bus.publish("u", windowEvent("w2"));
    expect(await waiting).toMatchObject({ done: false, value: { window_uuid: "w2" } });
    controller.abort();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it("isolates two users' windows of the same app through the dispatcher", async () => {
    const { dispatcher, token } = await openDispatcher({});
    const other = await dispatcher.openWindow("main", { userId: "bob" });
    const mine: AnnaAppEvent[] = [];
    const bobs: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId }, (e) => mine.push(e));
    dispatcher.events.subscribe({ userId: "bob" }, (e) => bobs.push(e));
    await dispatcher.call(token, "window", "set_title", { title: "mine" });
    await dispatcher.call(other.token, "window", "set_title", { title: "bob's" });
    expect(mine.map((e) => e.payload)).toEqual([{ title: "mine" }]);
    expect(bobs.map((e) => e.payload)).toEqual([{ title: "bob's" }]);
    // Bob cannot close my window by naming it.
    const mineWid = (await dispatcher.listWindows())[0]?.window_uuid as string;
    expect(
      await dispatcher.call(other.token, "window", "close", { window_uuid: mineWid }),
    ).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
