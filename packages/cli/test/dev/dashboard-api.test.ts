// The harness side of the dashboard's controls, without a browser: the windows PATCH body it
// accepts (and the reasons it refuses one), the dispatcher's refusals as HTTP statuses, and the
// simulated events it publishes.
import { createDispatcher, type Dispatcher } from "@anna-ai/app-core";
import type { AnnaAppEvent, AppManifest } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { publishSimulatedEvent, SIMULATED_KINDS } from "../../src/dev/dashboard/simulate-event.js";
import { parseWindowPatch, windowsRest, type HttpError } from "@anna-ai/app-core/http";

const MANIFEST = {
  schema: 2,
  ui: { views: [{ name: "main", min_size: { w: 320, h: 240 } }] },
} as unknown as AppManifest;

function refusal(run: () => unknown): Partial<HttpError> {
  try {
    run();
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("expected a refusal");
}

async function refusalOf(run: () => Promise<unknown>): Promise<Partial<HttpError>> {
  try {
    await run();
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("expected a refusal");
}

function harness(): { dispatcher: Dispatcher; events: AnnaAppEvent[] } {
  const dispatcher = createDispatcher({ manifest: MANIFEST, appId: "app", userId: "1" });
  const events: AnnaAppEvent[] = [];
  dispatcher.events.subscribe({ userId: "1", appId: "app" }, (event) => events.push(event));
  return { dispatcher, events };
}

describe("the windows PATCH body", () => {
  it("takes geometry, status, title, runtime_state_patch and focus", () => {
    expect(parseWindowPatch({ geometry: { x: 10, y: 20 }, focus: true })).toEqual({
      patch: { geometry: { x: 10, y: 20 } },
      focus: true,
    });
    expect(parseWindowPatch({ status: "minimized", title: "T" })).toEqual({
      patch: { status: "minimized", title: "T" },
      focus: false,
    });
    expect(parseWindowPatch({ runtime_state_patch: { a: 1 } }).patch).toEqual({
      runtime_state_patch: { a: 1 },
    });
  });

  it("refuses what it cannot apply, saying what would be right", () => {
    const cases: [unknown, RegExp][] = [
      [[], /must be a JSON object/],
      [{}, /nothing to patch: send at least one of geometry, status/],
      [{ geometry: { w: "wide" } }, /geometry must be an object of numbers/],
      [{ geometry: [1, 2] }, /geometry must be an object of numbers/],
      [{ status: "hidden" }, /status "hidden" is not one of active, minimized, closed, crashed/],
      [{ title: 7 }, /title must be a string/],
      [{ runtime_state_patch: "x" }, /runtime_state_patch must be a JSON object/],
      [{ focus: "yes" }, /focus must be true or false/],
      [{ z_index: 3 }, /unknown PATCH field z_index; the fields are geometry, status/],
    ];
    for (const [body, message] of cases) {
      const error = refusal(() => parseWindowPatch(body));
      expect(error, JSON.stringify(body)).toMatchObject({ status: 400, code: "invalid_arg" });
      expect(error.message).toMatch(message);
    }
  });

  it("turns the dispatcher's refusals into HTTP statuses with their codes", async () => {
    const { dispatcher } = harness();
    expect(
      await refusalOf(() => windowsRest(() => dispatcher.patchWindow("nope", {}))),
    ).toMatchObject({
      status: 404,
      code: "not_found",
    });
    const { window } = await dispatcher.openWindow("main");
    const wid = String(window.window_uuid);
    await dispatcher.closeWindow(wid);
    expect(
      await refusalOf(() => windowsRest(() => dispatcher.windows.setStatus(wid, "active"))),
    ).toMatchObject({
      status: 400,
      code: "invalid_arg",
      message: "a closed window cannot become active",
    });
    // Anything else is not a refusal and passes through.
    const boom = new Error("boom");
    expect(await refusalOf(() => windowsRest(() => Promise.reject(boom)))).toBe(boom);
  });
});

describe("simulated events", () => {
  it("publishes a window event with the real envelope, and an app-wide one without a window", async () => {
    const { dispatcher, events } = harness();
    const { window } = await dispatcher.openWindow("main");
    const wid = String(window.window_uuid);
    events.length = 0;
    const chat = await publishSimulatedEvent(dispatcher, "1", {
      kind: "chat_message_from_app",
      window_uuid: wid,
      payload: { role: "assistant", content: "hi" },
    });
    expect(chat).toMatchObject({
      type: "data_model/AnnaAppEvent",
      kind: "chat_message_from_app",
      window_uuid: wid,
      app_id: "app",
      version_id: "dev",
      payload: { role: "assistant", content: "hi" },
    });
    const job = await publishSimulatedEvent(dispatcher, "1", {
      kind: "tool_job",
      window_uuid: null,
      payload: { job_id: "j", state: "running" },
    });
    expect(job).not.toHaveProperty("window_uuid");
    expect(events.map((e) => e.kind)).toEqual(["chat_message_from_app", "tool_job"]);
  });

  it("refuses page-local or unknown kinds, bad payloads, and windows that are not live", async () => {
    const { dispatcher, events } = harness();
    const { window } = await dispatcher.openWindow("main");
    const wid = String(window.window_uuid);
    const cases: [unknown, number, RegExp][] = [
      [
        { kind: "entry_payload", window_uuid: wid },
        400,
        /cannot be simulated; use one of entry_payload, auth\.refresh, tool_job/,
      ],
      [{ kind: "title_changed", window_uuid: wid }, 400, /cannot be simulated/],
      [{ kind: "tool_job", payload: { job_id: "j" } }, 400, /^tool_job event: \/payload\/state/],
      [{ kind: "ping", payload: [1] }, 400, /the ping payload must be a JSON object/],
      [
        { kind: "chat_message_from_app", payload: {} },
        400,
        /about one window: name its window_uuid/,
      ],
      [{ kind: "ping", window_uuid: 5 }, 400, /window_uuid must be a window id, or null/],
      [{ kind: "ping", window_uuid: "gone" }, 404, /no live window gone/],
    ];
    for (const [body, status, message] of cases) {
      const error = await refusalOf(() => publishSimulatedEvent(dispatcher, "1", body));
      expect(error, JSON.stringify(body)).toMatchObject({ status });
      expect(error.message).toMatch(message);
    }
    expect(events.filter((e) => e.kind !== "open_view")).toEqual([]);
  });

  it("offers each kind once, with a starting payload its schema accepts", async () => {
    const kinds = SIMULATED_KINDS.map((k) => k.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.slice(0, 2)).toEqual(["entry_payload", "auth.refresh"]);
    const { dispatcher } = harness();
    const { window } = await dispatcher.openWindow("main");
    for (const spec of SIMULATED_KINDS.filter((k) => k.delivery === "harness")) {
      const event = await publishSimulatedEvent(dispatcher, "1", {
        kind: spec.kind,
        window_uuid: String(window.window_uuid),
        payload: spec.template,
      });
      expect(event.kind).toBe(spec.kind);
    }
  });
});
