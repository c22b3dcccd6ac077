// Which app iframes an event from the runtime stream reaches (docs/app-runtime.md, "Relaying
// events"): only frames that have said `window.hello`; among those, the frame the event names
// (envelope `window_uuid` or `payload.window_uuid`), and every frame of the app for app-wide
// events and for the sibling kinds `open_view` / `close_view`. Never another app's frames.
import { EVENT_MESSAGE_TYPE } from "../wire.js";

/** What the relay needs of a frame. */
export interface RelayTarget {
  readonly wid: string;
  /** The window's app, when the windows API said; events of another app never reach it. */
  readonly appId: string | undefined;
  readonly helloed: boolean;
  readonly iframe: HTMLIFrameElement | null;
}

/** An AnnaAppEvent as the stream carries it (only the fields the relay reads are typed). */
export interface RuntimeEvent {
  kind?: string;
  window_uuid?: string | null;
  app_id?: string | null;
  payload?: ({ window_uuid?: string } & Record<string, unknown>) | null;
  [field: string]: unknown;
}

/** Kinds about the app as a whole (no window), relayed to every window of it. */
const SIBLING_KINDS: ReadonlySet<string> = new Set(["open_view", "close_view"]);

/** False when the event names an app and the frame is known to be another app's. */
export function sameApp(frame: Pick<RelayTarget, "appId">, event: RuntimeEvent): boolean {
  return (
    typeof event.app_id !== "string" || frame.appId === undefined || event.app_id === frame.appId
  );
}

/** True when `event` is for `frame` (before the hello check). */
export function concerns(frame: RelayTarget, event: RuntimeEvent): boolean {
  if (!sameApp(frame, event)) return false;
  const about = event.window_uuid || event.payload?.window_uuid;
  return about === frame.wid || !event.window_uuid || SIBLING_KINDS.has(event.kind ?? "");
}

/** Posts `event`, envelope and all, to every helloed frame it concerns. */
export function relayEvent(frames: Iterable<RelayTarget>, event: RuntimeEvent): void {
  for (const frame of frames) {
    if (!frame.helloed || !frame.iframe) continue;
    if (concerns(frame, event))
      frame.iframe.contentWindow?.postMessage({ type: EVENT_MESSAGE_TYPE, event }, "*");
  }
}

/**
 * A page-local named event (`entry_payload`, `auth.refresh`) to one frame. The target origin is
 * "*" because a sandboxed iframe's origin is opaque; the message goes to that window object only.
 */
export function postNamedEvent(frame: RelayTarget, name: string, payload: unknown): void {
  frame.iframe?.contentWindow?.postMessage({ type: EVENT_MESSAGE_TYPE, name, payload }, "*");
}
