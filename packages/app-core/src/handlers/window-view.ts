import type { WindowRecord } from "../windows/window-store.js";

/** A window as the wire shows it (`hello`, the REST windows API): snake_case, no owner. */
export function windowView(window: WindowRecord): Record<string, unknown> {
  return {
    window_uuid: window.windowUuid,
    app_id: window.appId,
    version_id: window.versionId,
    view: window.view,
    status: window.status,
    title: window.title,
    geometry: window.geometry,
    entry_payload: window.entryPayload,
    runtime_state: window.runtimeState,
    conversation_session_uuid: window.conversationSessionUuid,
    z_index: window.zIndex,
  };
}
