import { ANNA_APP_EVENT_KINDS } from "@anna-ai/app-schema";
import { describe, expect, it, vi } from "vitest";
import { connect, HEARTBEAT_INTERVAL_MS, mapWireEvent, SDK_EVENT_BY_KIND } from "../src/index.js";
import { FakeHost, WINDOW_UUID, wireEvent } from "./helpers/fake-host.js";

const OTHER = "6f1c2b8e-0000-4000-8000-0000000000ff";

describe("mapWireEvent", () => {
  it("knows exactly the AnnaAppEvent kinds of @anna-ai/app-schema", () => {
    expect(Object.keys(SDK_EVENT_BY_KIND).sort()).toEqual([...ANNA_APP_EVENT_KINDS].sort());
  });

  it("surfaces open_view for this window as entry_payload with the payload itself (A6)", () => {
    const event = wireEvent("open_view", {
      window_uuid: WINDOW_UUID,
      entry_payload: { mode: "deep_focus" },
      view: "main",
    });
    expect(mapWireEvent(event, WINDOW_UUID)).toEqual({
      name: "entry_payload",
      payload: { mode: "deep_focus" },
      wire: event,
    });
  });

  it("keeps open_view for another window of the app as open_view", () => {
    const event = wireEvent(
      "open_view",
      { window_uuid: OTHER, view: "settings" },
      { window_uuid: OTHER },
    );
    expect(mapWireEvent(event, WINDOW_UUID)).toMatchObject({
      name: "open_view",
      payload: { window_uuid: OTHER },
    });
  });

  it("maps close_view for this window to close, for another to close_view", () => {
    expect(
      mapWireEvent(
        wireEvent("close_view", { window_uuid: WINDOW_UUID, reason: "user" }),
        WINDOW_UUID,
      ),
    ).toMatchObject({
      name: "close",
      payload: { reason: "user" },
    });
    expect(
      mapWireEvent(
        wireEvent("close_view", { window_uuid: OTHER }, { window_uuid: OTHER }),
        WINDOW_UUID,
      ),
    ).toMatchObject({
      name: "close_view",
    });
  });

  it("unwraps runtime_state_synced to the state and geometry_changed to the geometry", () => {
    expect(
      mapWireEvent(wireEvent("runtime_state_synced", { runtime_state: { a: 1 } }), WINDOW_UUID)
        ?.payload,
    ).toEqual({ a: 1 });
    expect(
      mapWireEvent(wireEvent("geometry_changed", { geometry: { w: 10, h: 20 } }), WINDOW_UUID)
        ?.payload,
    ).toEqual({ w: 10, h: 20 });
  });

  it("passes title_changed, tool_job and the other kinds with their payload", () => {
    expect(mapWireEvent(wireEvent("title_changed", { title: "T" }), WINDOW_UUID)).toMatchObject({
      name: "title_changed",
      payload: { title: "T" },
    });
    expect(
      mapWireEvent(wireEvent("tool_job", { job_id: "tjob_1", state: "running" }), WINDOW_UUID),
    ).toMatchObject({
      name: "tool_job",
      payload: { job_id: "tjob_1" },
    });
    expect(mapWireEvent(wireEvent("anna_app_tools_changed", {}), WINDOW_UUID)?.name).toBe(
      "tools.changed",
    );
  });

  it("drops unknown kinds, malformed events and another window's state events without throwing", () => {
    expect(mapWireEvent(wireEvent("brand_new_kind", { x: 1 }), WINDOW_UUID)).toBeUndefined();
    expect(mapWireEvent({ payload: {} }, WINDOW_UUID)).toBeUndefined();
    expect(mapWireEvent({ kind: 42 }, WINDOW_UUID)).toBeUndefined();
    expect(
      mapWireEvent(wireEvent("title_changed", { title: "x" }, { window_uuid: OTHER }), WINDOW_UUID),
    ).toBeUndefined();
    expect(
      mapWireEvent(
        wireEvent("runtime_state_synced", { runtime_state: {} }, { window_uuid: OTHER }),
        WINDOW_UUID,
      ),
    ).toBeUndefined();
    expect(
      mapWireEvent(
        wireEvent("rpc.stream", { stream_id: "s", seq: 0, window_uuid: OTHER }),
        WINDOW_UUID,
      ),
    ).toBeUndefined();
    // A payload that is not an object is read as empty, not thrown on.
    expect(
      mapWireEvent(
        wireEvent("runtime_state_synced", "junk" as unknown as Record<string, unknown>),
        WINDOW_UUID,
      )?.payload,
    ).toEqual({});
  });
});

describe("on(event, fn)", () => {
  it("delivers mapped events, updates the runtime's state, and stops after unsubscribe", async () => {
    const host = new FakeHost();
    const anna = await connect(host.connectOptions());
    try {
      const entries: unknown[] = [];
      const states: unknown[] = [];
      const stopEntries = anna.on("entry_payload", (payload) => entries.push(payload));
      anna.on("runtime_state_synced", (state, wire) => states.push([state, wire?.["kind"]]));
      host.emitEvent(
        wireEvent("open_view", { window_uuid: WINDOW_UUID, entry_payload: { step: 1 } }),
      );
      host.emitEvent(wireEvent("runtime_state_synced", { runtime_state: { notes: "synced" } }));
      host.emitEvent(wireEvent("geometry_changed", { geometry: { w: 900 } }));
      host.emitEvent(wireEvent("title_changed", { title: "Renamed" }));
      await host.settle();
      expect(entries).toEqual([{ step: 1 }]);
      expect(states).toEqual([[{ notes: "synced" }, "runtime_state_synced"]]);
      expect(anna.entryPayload).toEqual({ step: 1 });
      expect(anna.runtimeState).toEqual({ notes: "synced" });
      expect(anna.geometry).toMatchObject({ w: 900, h: 480 });
      expect(anna.viewMeta.title).toBe("Renamed");

      stopEntries();
      host.emitEvent(
        wireEvent("open_view", { window_uuid: WINDOW_UUID, entry_payload: { step: 2 } }),
      );
      await host.settle();
      expect(entries).toEqual([{ step: 1 }]);
      expect(anna.entryPayload).toEqual({ step: 2 });
    } finally {
      anna.close();
    }
  });

  it("delivers page-local named events, drops unknown wire kinds, and survives a throwing handler", async () => {
    const host = new FakeHost();
    const anna = await connect(host.connectOptions());
    try {
      const seen: string[] = [];
      anna.on("entry_payload", () => {
        throw new Error("handler bug");
      });
      anna.on("entry_payload", (payload) => seen.push(`entry:${JSON.stringify(payload)}`));
      anna.on("tools.changed", () => seen.push("tools.changed"));
      anna.tools.onChanged(() => seen.push("onChanged"));
      host.emitNamed("entry_payload", { mode: "sim" });
      host.emitEvent(wireEvent("not_a_kind_yet", {}));
      host.emitEvent(wireEvent("anna_app_tools_changed", {}));
      await host.settle();
      expect(seen).toEqual(['entry:{"mode":"sim"}', "tools.changed", "onChanged"]);
    } finally {
      anna.close();
    }
  });

  it("emits close and stops the heartbeat when the host closes this window", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost();
    const anna = await connect(host.connectOptions());
    try {
      const closes: unknown[] = [];
      anna.on("close", (payload) => closes.push(payload));
      await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
      expect(host.requestsFor("window.heartbeat")).toHaveLength(1);
      host.emitEvent(wireEvent("close_view", { window_uuid: WINDOW_UUID, reason: "idle" }));
      await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 3);
      expect(closes).toEqual([{ window_uuid: WINDOW_UUID, reason: "idle" }]);
      expect(host.requestsFor("window.heartbeat")).toHaveLength(1);
    } finally {
      anna.close();
      vi.useRealTimers();
    }
  });
});
