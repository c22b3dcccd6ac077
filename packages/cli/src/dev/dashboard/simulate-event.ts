// The developer panel's simulated events: which kinds the form offers, how each reaches the app,
// and the harness side of `POST /dev/api/events`. An AnnaAppEvent kind is built with the real
// envelope, checked against app-schema's AnnaAppEvent union, then published through the
// dispatcher (so it is recorded, streamed to every tab and relayed to the iframes like a real
// one). A page-local kind (`entry_payload`, `auth.refresh`) is posted to the iframe by the page,
// which asks the harness first: the harness records it (A10: every event of a session) and, for
// `auth.refresh`, mints the token.
import { makeEvent, type Dispatcher } from "@anna-ai/app-core";
import { parseAnnaAppEvent, type AnnaAppEvent, type AnnaAppEventKind } from "@anna-ai/app-schema";
import { HttpError, jsonFields } from "@anna-ai/app-core/http";

export interface SimulatedKind {
  /** The `on()` name for page-local events, the wire `kind` for the rest. */
  kind: string;
  /** `window` kinds need a target window; `app` kinds may go to every window of the app. */
  scope: "window" | "app";
  /**
   * `page`: posted to the iframe by the dashboard (`{type: "anna-app/event", name, payload}`)
   * after the harness recorded it; `mint`: the same, with a token the harness mints
   * (`auth.refresh`, L6292); `harness`: published by the harness on the event stream.
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
    // Neutral: what an app's entry_payload means is the app's own (A6).
    template: {},
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
const PAGE_KINDS = new Map(
  SIMULATED_KINDS.filter((k) => k.delivery !== "harness").map((k) => [k.kind, k]),
);

/** Whether `POST /dev/api/events` names a kind the page delivers (see recordPageEvent). */
export function isPageKind(body: unknown): boolean {
  const kind = jsonFields(body).kind;
  return typeof kind === "string" && PAGE_KINDS.has(kind);
}

/** A page-local event as the harness recorded it, with what the page posts to the iframe. */
export interface PageEvent {
  name: string;
  window_uuid: string;
  payload: unknown;
}

export interface PageEventDeps {
  dispatcher: Dispatcher;
  userId: string;
  /** The session recording's `event` line (absent with `--no-record`). */
  record(event: PageEvent): void;
}

/**
 * `POST /dev/api/events` for `entry_payload` / `auth.refresh` `{kind, window_uuid, payload}`:
 * the window must be live; the event is recorded and returned for the page to post. An
 * `auth.refresh` carries a token minted now; the recording keeps only its `expires_in` (tokens
 * are never written).
 */
export async function recordPageEvent(deps: PageEventDeps, body: unknown): Promise<PageEvent> {
  const request = jsonFields(body);
  const spec = PAGE_KINDS.get(String(request.kind));
  if (spec === undefined)
    throw bad("invalid_arg", `${String(request.kind)} is not a page-local kind`);
  const wid = request.window_uuid;
  if (typeof wid !== "string") {
    throw bad("invalid_arg", `${spec.kind} is about one window: name its window_uuid`);
  }
  await liveWindow(deps.dispatcher, wid);
  if (spec.delivery === "mint") {
    const { token, expires_in } = await deps.dispatcher.mintToken(wid, deps.userId);
    deps.record({ name: spec.kind, window_uuid: wid, payload: { expires_in } });
    return { name: spec.kind, window_uuid: wid, payload: { token, expires_in } };
  }
  // entry_payload is any JSON (A6); absent is `{}`, as the form starts.
  const event = { name: spec.kind, window_uuid: wid, payload: request.payload ?? {} };
  deps.record(event);
  return event;
}

/** The window, when it is live (active or minimised); 404 naming it otherwise. */
async function liveWindow(
  dispatcher: Dispatcher,
  wid: string,
): Promise<NonNullable<Awaited<ReturnType<Dispatcher["getWindow"]>>>> {
  const win = await dispatcher.getWindow(wid);
  if (win === undefined || (win.status !== "active" && win.status !== "minimized")) {
    throw bad("not_found", `no live window ${wid}: open it (or pick another) first`);
  }
  return win;
}

function bad(code: string, message: string): HttpError {
  return new HttpError(code, message);
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
  const request = jsonFields(body);
  const kind = request.kind;
  const spec = typeof kind === "string" ? HARNESS_KINDS.get(kind) : undefined;
  if (spec === undefined) {
    throw bad(
      "invalid_arg",
      `kind ${JSON.stringify(kind)} cannot be simulated; use one of ${[...PAGE_KINDS.keys(), ...HARNESS_KINDS.keys()].join(", ")}`,
    );
  }
  const wid = request.window_uuid ?? null;
  if (wid !== null && typeof wid !== "string") {
    throw bad("invalid_arg", "window_uuid must be a window id, or null for every window");
  }
  if (wid === null && spec.scope === "window") {
    throw bad("invalid_arg", `${spec.kind} is about one window: name its window_uuid`);
  }
  const payload = request.payload ?? {};
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw bad("invalid_arg", `the ${spec.kind} payload must be a JSON object`);
  }
  let subject: Parameters<typeof makeEvent>[1] = { appId: dispatcher.appId };
  if (wid !== null) {
    const win = await liveWindow(dispatcher, wid);
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
  if (!parsed.ok) throw bad("invalid_arg", parsed.reason);
  dispatcher.emit(userId, event);
  return event;
}
