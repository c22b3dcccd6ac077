import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANNA_APP_EVENT_KINDS, parseAnnaAppEvent } from "../../src/app/events.js";

const ENVELOPE = {
  app_id: "app_1",
  version_id: "v1",
  conversation_session_uuid: "c1",
  by_client_id: "tab",
  ts: 1714291200,
};

describe("parseAnnaAppEvent", () => {
  it("types a known kind by its payload", () => {
    const parsed = parseAnnaAppEvent({
      ...ENVELOPE,
      kind: "title_changed",
      window_uuid: "w",
      payload: { title: "Hi" },
    });
    expect(
      parsed.ok &&
        parsed.known &&
        parsed.event.kind === "title_changed" &&
        parsed.event.payload.title,
    ).toBe("Hi");
  });

  it("keeps unknown kinds as passthrough events to drop, payload untouched", () => {
    const parsed = parseAnnaAppEvent({
      ...ENVELOPE,
      kind: "hologram_opened",
      payload: { depth: 3 },
      extra: true,
    });
    expect(parsed).toMatchObject({
      ok: true,
      known: false,
      event: { kind: "hologram_opened", payload: { depth: 3 }, extra: true },
    });
  });

  it("reports a known kind with a bad payload instead of passing it through", () => {
    const parsed = parseAnnaAppEvent({ ...ENVELOPE, kind: "close_view", payload: { reason: "x" } });
    expect(parsed).toEqual({
      ok: false,
      reason: "close_view event: /payload/window_uuid is required and must be a string",
    });
  });

  it("knows every kind of the Reference list plus tool_job and deck_changed", () => {
    for (const kind of [
      "ping",
      "open_view",
      "close_view",
      "window_focus_changed",
      "geometry_changed",
      "title_changed",
      "status_changed",
      "runtime_state_synced",
      "artifact_appended",
      "chat_message_from_app",
      "rpc.stream",
      "anna_app_tools_changed",
      "executa_reconcile_result",
      "executa_readiness",
      "tool_job",
      "deck_changed",
    ]) {
      expect(ANNA_APP_EVENT_KINDS).toContain(kind);
    }
  });

  it("never throws, whatever arrives on the stream", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            kind: fc.oneof(fc.constantFrom(...ANNA_APP_EVENT_KINDS), fc.string()),
            payload: fc.jsonValue(),
            app_id: fc.string(),
            ts: fc.integer(),
          }),
        ),
        (value) => {
          const parsed = parseAnnaAppEvent(value);
          expect(typeof parsed.ok).toBe("boolean");
        },
      ),
      { numRuns: 500 },
    );
  });
});
