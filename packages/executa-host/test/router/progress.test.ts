import { describe, expect, it } from "vitest";
import type { RouterProgressEvent as ProgressEvent } from "../../src/router/progress.js";
import { PROGRESS_MAX_EVENTS_PER_S } from "../../src/router/limits.js";
import { harness, invokeStart } from "./helpers.js";

async function open() {
  const events: ProgressEvent[] = [];
  let now = 1_000_000;
  const warnings: string[] = [];
  const { session } = harness({
    onProgress: (event) => events.push(event),
    now: () => now,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
    },
  });
  await session.beginInvoke(invokeStart("inv-1", { tool: "long-task" }));
  await session.beginInvoke(invokeStart("inv-2"));
  return {
    session,
    events,
    warnings,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const progress = (invokeId: string | undefined, extra: Record<string, unknown> = {}) => ({
  type: "tool_update",
  data: { step: 1, total: 3 },
  ...(invokeId === undefined ? {} : { context: { invoke_id: invokeId } }),
  ...extra,
});

describe("executa/progress (T29)", () => {
  it("delivers a progress event to the invoke named in context.invoke_id", async () => {
    const { session, events } = await open();
    session.handleNotification("executa/progress", progress("inv-1"));
    expect(events).toEqual([
      {
        userId: "user-1",
        toolId: "tool-a",
        invokeId: "inv-1",
        tool: "long-task",
        type: "tool_update",
        data: { step: 1, total: 3 },
        receivedAtMs: 1_000_000,
      },
    ]);
  });

  it("coerces any other type, including terminal ones, to progress", async () => {
    const { session, events } = await open();
    for (const type of ["completed", "failed", 7, undefined, "progress"]) {
      session.handleNotification("executa/progress", progress("inv-1", { type }));
    }
    expect(events.map((e) => e.type)).toEqual([
      "progress",
      "progress",
      "progress",
      "progress",
      "progress",
    ]);
  });

  it("drops events without context.invoke_id, even with metadata or a single active invoke", async () => {
    const { session, events } = await open();
    session.endInvoke("inv-2");
    session.handleNotification("executa/progress", progress(undefined));
    session.handleNotification(
      "executa/progress",
      progress(undefined, { metadata: { executa_invoke_id: "inv-1" } }),
    );
    session.handleNotification("executa/progress", progress(""));
    expect(events).toHaveLength(0);
  });

  it("drops events for unknown or finished invokes", async () => {
    const { session, events } = await open();
    session.endInvoke("inv-2");
    session.handleNotification("executa/progress", progress("inv-2"));
    session.handleNotification("executa/progress", progress("nope"));
    expect(events).toHaveLength(0);
  });

  it(`keeps at most ${PROGRESS_MAX_EVENTS_PER_S} events per second per invoke`, async () => {
    const { session, events, advance } = await open();
    for (let i = 0; i < 60; i++) session.handleNotification("executa/progress", progress("inv-1"));
    for (let i = 0; i < 5; i++) session.handleNotification("executa/progress", progress("inv-2"));
    expect(events.filter((e) => e.invokeId === "inv-1")).toHaveLength(50);
    expect(events.filter((e) => e.invokeId === "inv-2")).toHaveLength(5);
    advance(999);
    session.handleNotification("executa/progress", progress("inv-1"));
    expect(events).toHaveLength(55);
    advance(1);
    session.handleNotification("executa/progress", progress("inv-1"));
    expect(events).toHaveLength(56);
  });

  it("drops events whose data is over 8 KB", async () => {
    const { session, events } = await open();
    session.handleNotification(
      "executa/progress",
      progress("inv-1", { data: "x".repeat(8 * 1024) }),
    );
    session.handleNotification(
      "executa/progress",
      progress("inv-1", { data: "x".repeat(8 * 1024 - 2) }),
    );
    expect(events).toHaveLength(1);
  });

  it("ignores other notifications and malformed params without throwing", async () => {
    const { session, events } = await open();
    expect(() => {
      session.handleNotification("executa/progress", null);
      session.handleNotification("executa/progress", "text");
      session.handleNotification("executa/progress", [1, 2]);
      session.handleNotification("notifications/other", progress("inv-1"));
    }).not.toThrow();
    expect(events).toHaveLength(0);
  });

  it("survives a listener that throws", async () => {
    const { session } = harness({
      onProgress: () => {
        throw new Error("listener bug");
      },
    });
    await session.beginInvoke(invokeStart("inv-1"));
    expect(() => session.handleNotification("executa/progress", progress("inv-1"))).not.toThrow();
  });

  it("drops everything when no listener is configured", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    expect(() => session.handleNotification("executa/progress", progress("inv-1"))).not.toThrow();
  });
});
