// The panel's SSE stream: call rows go out in batches (one write per PANEL_CALL_FLUSH_MS), so
// the page renders once per batch instead of once per call; notices keep their order after the
// calls recorded before them, nothing recorded is lost on close, and a page opening its stream
// gets the calls made since the state it was built with.
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DevPanel, PANEL_CALL_FLUSH_MS, type CallEntry } from "../../src/dev/dev-panel.js";

/** A ServerResponse stand-in that keeps every write. */
class FakeStream extends EventEmitter {
  readonly writes: string[] = [];
  ended = false;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  /** The SSE event names in the order they were written. */
  events(): string[] {
    return [...this.writes.join("").matchAll(/^event: (.+)$/gm)].map((m) => m[1] as string);
  }
}

function attached(panel: DevPanel): FakeStream {
  const stream = new FakeStream();
  panel.attach(stream as unknown as ServerResponse);
  return stream;
}

function call(id: string): CallEntry {
  return {
    id,
    ts: 0,
    window_uuid: "w",
    ns: "window",
    method: "heartbeat",
    args: {},
    outcome: "allowed",
    ms: 0.1,
    result: {},
  };
}

describe("DevPanel stream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends the calls of one flush window as one write when the window ends", () => {
    const panel = new DevPanel();
    const stream = attached(panel);
    panel.record(call("a"));
    panel.record(call("b"));
    panel.record(call("c"));
    expect(stream.writes).toEqual([]);
    vi.advanceTimersByTime(PANEL_CALL_FLUSH_MS);
    expect(stream.writes).toHaveLength(1);
    expect(stream.events()).toEqual(["call", "call", "call"]);
    expect(stream.writes[0]).toContain('"id":"c"');
    expect(panel.calls.map((c) => c.id)).toEqual(["a", "b", "c"]);
  });

  it("sends pending calls before a notice, so the page sees them in order", () => {
    const panel = new DevPanel();
    const stream = attached(panel);
    panel.record(call("a"));
    panel.push("reload", { at: 1 });
    expect(stream.events()).toEqual(["call", "reload"]);
    vi.advanceTimersByTime(PANEL_CALL_FLUSH_MS);
    expect(stream.events()).toEqual(["call", "reload"]);
  });

  it("sends a page the calls made after its boot state and before its stream opened, once each", () => {
    const panel = new DevPanel();
    panel.record(call("shown-inline"));
    const seenAtBoot = panel.recordedCount;
    // While the page loads: one call with no stream open, one flushed to another tab's stream,
    // one still waiting for the next flush.
    panel.record(call("no-stream-yet"));
    const otherTab = attached(panel);
    panel.record(call("flushed-to-other-tab"));
    vi.advanceTimersByTime(PANEL_CALL_FLUSH_MS);
    panel.record(call("pending"));

    const page = new FakeStream();
    panel.attach(page as unknown as ServerResponse, seenAtBoot);
    vi.advanceTimersByTime(PANEL_CALL_FLUSH_MS);
    const ids = [...page.writes.join("").matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["no-stream-yet", "flushed-to-other-tab", "pending"]);
    expect(otherTab.events()).toEqual(["call", "call"]);

    // A stream without `after` (a script) gets only what comes next.
    const script = attached(panel);
    panel.record(call("next"));
    vi.advanceTimersByTime(PANEL_CALL_FLUSH_MS);
    expect(script.writes.join("")).not.toContain("pending");
    expect(script.events()).toEqual(["call"]);
  });

  it("flushes pending calls on close and keeps history when no page listens", () => {
    const panel = new DevPanel();
    panel.record(call("before-any-page"));
    const stream = attached(panel);
    panel.record(call("a"));
    panel.close();
    expect(stream.events()).toEqual(["call"]);
    expect(stream.ended).toBe(true);
    expect(panel.calls.map((c) => c.id)).toEqual(["before-any-page", "a"]);
  });
});
