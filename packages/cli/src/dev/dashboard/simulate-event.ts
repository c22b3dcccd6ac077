// The developer panel's simulated events: which kinds the form offers, how each reaches the app,
// and the harness side of `POST /dev/api/events` — the event built with the real envelope,
// checked against app-schema's AnnaAppEvent union, then published through the dispatcher (so it
// is recorded, streamed to every tab and relayed to the iframes like a real one).
import { makeEvent, type Dispatcher } from "@anna-ai/app-core";
import { parseAnnaAppEvent, type AnnaAppEvent, type AnnaAppEventKind } from "@anna-ai/app-schema";
import { HttpError } from "../http-util.js";

export interface SimulatedKind {
  /** The `on()` name for page-local events, the wire `kind` for the rest. */
  kind: string;
  /** `window` kinds need a target window; `app` kinds may go to every window of the app. */
  scope: "window" | "app";
  /**
   * `page`: posted to the iframe by the dashboard (`{type: "anna-app/event", name, payload}`);
   * `mint`: the same, with a token the harness mints (`auth.refresh`, L6292); `harness`: through
   * `POST /dev/api/events`.
   */
  delivery: "page" | "mint" | "harness";
  /** Whether the payload must be a JSON object (every AnnaAppEvent payload is). */
  object: boolean;
  /** What the form's payload box starts with. */
  template: unknown;
}

/**
 * Events an app reacts to that a developer cannot easily cause from the dashboard. Window state
 * events (title, geometry, status, focus, open/close, runtime_state_synced) are left out: the
 * frames and storage cause the real ones, and a fake would disagree with the harness's window.
 */
export const SIMULATED_KINDS: readonly SimulatedKind[] = Object.freeze([
  {
    kind: "entry_payload",
    scope: "window",
    delivery: "page",
    object: false,
    template: { mode: "deep_focus" },
  },
  { kind: "auth.refresh", scope: "window", delivery: "mint", object: true, template: {} },
  {
    kind: "tool_job",
    scope: "app",
    delivery: "harness",
    object: true,
    template: { job_id: "job-simulated-1", state: "running", seq: 1, event: { progress: 0.5 } },
  },
  {
    kind: "chat_message_from_app",
    scope: "window",
    delivery: "harness",
    object: true,
    template: { role: "assistant", content: "A simulated chat message" },
  },
  {
    kind: "artifact_appended",
    scope: "window",
    delivery: "harness",
    object: true,
    template: {
      artifact_id: "artifact-simulated-1",
      kind: "note",
      summary: "A simulated artifact",
    },
  },
  { kind: "anna_app_tools_changed", scope: "app", delivery: "harness", object: true, template: {} },
  {
    kind: "executa_readiness",
    scope: "app",
    delivery: "harness",
    object: true,
    template: { ready: false },
  },
  {
    kind: "executa_reconcile_result",
    scope: "app",
    delivery: "harness",
    object: true,
    template: { ok: true },
  },
  { kind: "deck_changed", scope: "app", delivery: "harness", object: true, template: {} },
  { kind: "ping", scope: "app", delivery: "harness", object: true, template: {} },
]);

const HARNESS_KINDS = new Map(
  SIMULATED_KINDS.filter((k) => k.delivery === "harness").map((k) => [k.kind, k]),
);

function bad(status: number, code: string, message: string): HttpError {
  return new HttpError(status, code, message);
}

/**
 * `POST /dev/api/events` `{kind, window_uuid, payload}`: validates, publishes and returns the
 * event. 400 for an unknown kind or a payload the kind's schema refuses (the reason names the
 * field), 404 for a window that is not live.
 */
export async function publishSimulatedEvent(
  dispatcher: Dispatcher,
  userId: string,
  body: unknown,
): Promise<AnnaAppEvent> {
  const request =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const kind = request.kind;
  const spec = typeof kind === "string" ? HARNESS_KINDS.get(kind) : undefined;
  if (spec === undefined) {
    throw bad(
      400,
      "invalid_arg",
      `kind ${JSON.stringify(kind)} cannot be simulated through the harness; use one of ${[...HARNESS_KINDS.keys()].join(", ")}`,
    );
  }
  const wid = request.window_uuid ?? null;
  if (wid !== null && typeof wid !== "string") {
    throw bad(400, "invalid_arg", "window_uuid must be a window id, or null for every window");
  }
  if (wid === null && spec.scope === "window") {
    throw bad(400, "invalid_arg", `${spec.kind} is about one window: name its window_uuid`);
  }
  const payload = request.payload ?? {};
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw bad(400, "invalid_arg", `the ${spec.kind} payload must be a JSON object`);
  }
  let subject: Parameters<typeof makeEvent>[1] = { appId: dispatcher.appId };
  if (wid !== null) {
    const win = await dispatcher.getWindow(wid);
    if (win === undefined || (win.status !== "active" && win.status !== "minimized")) {
      throw bad(404, "not_found", `no live window ${wid}: open it (or pick another) first`);
    }
    subject = {
      windowUuid: wid,
      appId: dispatcher.appId,
      versionId: String(win.version_id),
      conversationSessionUuid: (win.conversation_session_uuid as string | null) ?? null,
    };
  }
  const event = makeEvent(
    spec.kind as AnnaAppEventKind,
    subject,
    payload as Record<string, unknown>,
    Date.now(),
  );
  const parsed = parseAnnaAppEvent(event);
  if (!parsed.ok) throw bad(400, "invalid_arg", parsed.reason);
  dispatcher.emit(userId, event);
  return event;
}
