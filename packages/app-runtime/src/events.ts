/**
 * Wire → SDK event mapping (L6053–L6069, L6156, L6192–L6198, R161; inventory Z12). The wire
 * speaks `AnnaAppEvent` kinds; bundles subscribe with `anna.on(name, fn)` to the SDK's names.
 * Unknown kinds are dropped, never thrown (forward compatibility).
 */

/** Every `AnnaAppEvent` kind this SDK knows, with the name `on()` surfaces it under. */
export const SDK_EVENT_BY_KIND: Readonly<Record<string, string>> = Object.freeze({
  ping: "ping",
  /** For this window: `entry_payload` (single-instance re-open, A6); another window: `open_view`. */
  open_view: "open_view",
  /** For this window: `close`; another window of the app: `close_view`. */
  close_view: "close_view",
  window_focus_changed: "window_focus_changed",
  geometry_changed: "geometry_changed",
  title_changed: "title_changed",
  status_changed: "status_changed",
  runtime_state_synced: "runtime_state_synced",
  artifact_appended: "artifact_appended",
  chat_message_from_app: "chat_message_from_app",
  "rpc.stream": "rpc.stream",
  /** The Reference calls it `tools.changed` (L11197); `anna.tools.onChanged` listens to it. */
  anna_app_tools_changed: "tools.changed",
  executa_reconcile_result: "executa_reconcile_result",
  executa_readiness: "executa_readiness",
  tool_job: "tool_job",
  deck_changed: "deck_changed",
});

/** The names `on()` accepts. Page-local events (`auth.refresh`, …) pass through by name. */
export type AnnaEventName =
  | "entry_payload"
  | "runtime_state_synced"
  | "geometry_changed"
  | "title_changed"
  | "close"
  | "open_view"
  | "close_view"
  | "window_focus_changed"
  | "status_changed"
  | "artifact_appended"
  | "chat_message_from_app"
  | "rpc.stream"
  | "tools.changed"
  | "executa_reconcile_result"
  | "executa_readiness"
  | "tool_job"
  | "deck_changed"
  | "ping"
  | "auth.refresh"
  | "safe_area";

/**
 * Kinds about one window: dropped when the envelope names another window. (Focus changes are
 * about every window, so `window_focus_changed` passes.)
 */
const WINDOW_SCOPED_KINDS: ReadonlySet<string> = new Set([
  "geometry_changed",
  "title_changed",
  "status_changed",
  "runtime_state_synced",
]);

export interface SdkEvent {
  /** The `on()` name. */
  name: string;
  /**
   * What handlers receive: the kind's payload, unwrapped where the spec's examples take the
   * value itself (`entry_payload` → the payload, `runtime_state_synced` → the state,
   * `geometry_changed` → the geometry).
   */
  payload: unknown;
  /** The wire event it came from (envelope included), or undefined for page-local events. */
  wire?: Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Map one wire `AnnaAppEvent` to the SDK event it surfaces as, or `undefined` to drop it
 * (unknown kind, malformed, or about another window). Pure: the dispatcher's tests and
 * `mountBundle` reuse it.
 */
export function mapWireEvent(
  event: Record<string, unknown>,
  windowUuid: string,
): SdkEvent | undefined {
  const kind = event["kind"];
  if (typeof kind !== "string") return undefined;
  const name = SDK_EVENT_BY_KIND[kind];
  if (name === undefined) return undefined;
  const payload = record(event["payload"]);
  const envelopeWindow = event["window_uuid"];
  const aboutOther =
    typeof envelopeWindow === "string" && envelopeWindow !== "" && envelopeWindow !== windowUuid;
  if (WINDOW_SCOPED_KINDS.has(kind) && aboutOther) return undefined;
  switch (kind) {
    case "open_view": {
      const target = payload["window_uuid"] ?? envelopeWindow;
      if (target === windowUuid)
        return { name: "entry_payload", payload: payload["entry_payload"], wire: event };
      return { name, payload, wire: event };
    }
    case "close_view": {
      const target = payload["window_uuid"] ?? envelopeWindow;
      if (target === undefined || target === null || target === windowUuid) {
        return { name: "close", payload, wire: event };
      }
      return { name, payload, wire: event };
    }
    case "runtime_state_synced":
      return { name, payload: record(payload["runtime_state"]), wire: event };
    case "geometry_changed":
      return { name, payload: record(payload["geometry"]), wire: event };
    case "rpc.stream": {
      const target = payload["window_uuid"];
      if (typeof target === "string" && target !== "" && target !== windowUuid) return undefined;
      return { name, payload, wire: event };
    }
    default:
      return { name, payload, wire: event };
  }
}
