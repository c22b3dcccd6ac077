import { ANNA_APP_EVENT_TYPE, type AnnaAppEvent, type AnnaAppEventKind } from "@anna-ai/app-schema";
import type { WindowRecord } from "../windows/window-store.js";

/** Where an event came from: the window it is about, or only the app (app-wide events). */
export type EventSubject =
  | Pick<WindowRecord, "windowUuid" | "appId" | "versionId" | "conversationSessionUuid">
  | { appId: string; versionId?: string };

/**
 * The SSE envelope (U35): `ts` in unix seconds as in the spec's example; `window_uuid` only for
 * window events, so app-wide events reach every window of the app (A5).
 */
export function makeEvent(
  kind: AnnaAppEventKind,
  subject: EventSubject,
  payload: Record<string, unknown>,
  nowMs: number,
  byClientId?: string,
): AnnaAppEvent {
  const event: Record<string, unknown> = {
    type: ANNA_APP_EVENT_TYPE,
    kind,
    app_id: subject.appId,
    ts: Math.floor(nowMs / 1000),
    payload,
  };
  if ("windowUuid" in subject) {
    event.window_uuid = subject.windowUuid;
    event.version_id = subject.versionId;
    event.conversation_session_uuid = subject.conversationSessionUuid;
  } else if (subject.versionId !== undefined) {
    event.version_id = subject.versionId;
  }
  if (byClientId !== undefined) event.by_client_id = byClientId;
  return event as unknown as AnnaAppEvent;
}
