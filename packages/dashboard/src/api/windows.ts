// The runtime wire's windows REST (nexus/src/routes/runtime.ts, app-core's runtime app) as the
// dashboard opens a window with it: `POST /anna-apps/runtime/windows?app_id=` for one of the
// person's installed apps. The rest of the windows API (list, link, patch, close) is the window
// host's (@anna-ai/app-runtime/host, in the lazily loaded desk); this file stays small because
// My apps, in the first page load, imports it.
import type { Geometry } from "@anna-ai/app-runtime/host";
import { currentFormFactor } from "../windows/form-factor";
import { ApiError } from "./client";

export const RUNTIME_API = "/api/v1/anna-apps/runtime";

/** A window as the windows API shows it; only what the dashboard reads is typed. */
export interface AppWindowInfo {
  window_uuid: string;
  view: string;
  app_id?: string;
  title?: string;
  status?: string;
  z_index?: number;
  /** Where the window is (`{x, y, w, h, …}`), as the server keeps it. */
  geometry?: Geometry;
  /** The conversation the window was opened beside; null for none. */
  conversation_session_uuid?: string | null;
  [field: string]: unknown;
}

/** `POST /windows`: the window, its token and the iframe URL; `reused` for a single-instance view. */
export interface OpenedAppWindow {
  window: AppWindowInfo;
  token: string;
  expires_in?: number;
  url: string;
  reused?: boolean;
}

/**
 * The runtime answers `{ok: false, error: {code, message}}` (the Host API's shape); Nexus's own
 * guards in front of it (sign-in, CSRF) answer `{detail: {code, message}}`. Either becomes an
 * ApiError with the server's words.
 */
async function runtimeError(res: Response, what: string): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as {
    error?: { code?: unknown; message?: unknown };
    detail?: { code?: unknown; message?: unknown };
  };
  const e = body.error ?? body.detail;
  const code = typeof e?.code === "string" ? e.code : `http_${res.status}`;
  const message = typeof e?.message === "string" ? e.message : `${what}: HTTP ${res.status}`;
  return new ApiError(res.status, code, message);
}

export interface OpenWindowOptions {
  /** Omitted: the view the manifest marks `default: true`. */
  view?: string;
  /**
   * The conversation the window belongs to. A single-instance view is one window per
   * conversation (L6020), so Open beside a conversation finds the window its turn opened.
   */
  conversationId?: string;
}

/** Opens a view of installed app `appId` on the server. */
export async function openAppWindow(
  appId: number | string,
  options: OpenWindowOptions = {},
): Promise<OpenedAppWindow> {
  const body = {
    ...(options.view === undefined ? {} : { view: options.view }),
    ...(options.conversationId === undefined
      ? {}
      : { conversation_session_uuid: options.conversationId }),
    // A phone-sized page is the mobile container: the app's mobile entry, if it has one.
    ...(currentFormFactor() === "mobile" ? { form_factor: "mobile" } : {}),
  };
  const res = await fetch(`${RUNTIME_API}/windows?app_id=${encodeURIComponent(String(appId))}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await runtimeError(res, "opening the app's window");
  return (await res.json()) as OpenedAppWindow;
}

/** The person's live windows (active or minimised) of every app, for the desk to restore. */
export async function listAppWindows(): Promise<AppWindowInfo[]> {
  const res = await fetch(`${RUNTIME_API}/windows`, { credentials: "same-origin" });
  if (!res.ok) throw await runtimeError(res, "listing your app windows");
  return ((await res.json()) as { windows: AppWindowInfo[] }).windows;
}
