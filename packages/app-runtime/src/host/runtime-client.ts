// The runtime REST routes as a host page uses them (docs/app-runtime.md part 2): the windows API
// (`<apiBase>/windows[/{wid}]`), the rpc endpoint and the event stream's URL. Every windows call
// answers `{ok: true, …body}` or `{ok: false, error: {code, message}}` and never throws on an
// HTTP or network error, so a refused PATCH is something the page shows, not an exception.

/** Where the platform and `anna-app dev` serve the runtime routes. */
export const DEFAULT_API_BASE = "/api/v1/anna-apps/runtime";

export interface WireError {
  code: string;
  message: string;
  details?: unknown;
}

export type Answer<T> = ({ ok: true } & T) | { ok: false; error: WireError };

export interface Geometry {
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  [field: string]: unknown;
}

/** A window as the windows API shows it (only the fields the host reads are typed). */
export interface WindowInfo {
  window_uuid: string;
  view: string;
  app_id?: string;
  title?: string;
  status?: string;
  geometry?: Geometry;
  z_index?: number;
  [field: string]: unknown;
}

/** GET /windows/{wid}: the window, a freshly minted token and the iframe URL carrying it. */
export interface WindowLink {
  window: WindowInfo;
  token: string;
  expires_in?: number;
  url: string;
}

/** POST /windows: a single-instance view that is already open answers `reused: true`. */
export interface OpenedWindow extends WindowLink {
  reused?: boolean;
}

/** PATCH /windows/{wid}: any of `{geometry}`, `{status}`, `{title}`, `{focus: true}`. */
export interface WindowPatch {
  geometry?: Geometry;
  status?: string;
  title?: string;
  focus?: true;
}

/** What the bridge forwards to the rpc endpoint (the envelope without `type`, token, deadline). */
export interface RpcBody {
  id: string;
  window_uuid: string;
  ns: string;
  method: string;
  args: Record<string, unknown>;
}

/** The containers of L6824: floating windows, or one full-screen sheet at a time. */
export type FormFactor = "desktop" | "mobile";

export interface RuntimeClient {
  readonly eventsUrl: string;
  openWindow(view: string, payload?: unknown): Promise<Answer<OpenedWindow>>;
  windowLink(wid: string): Promise<Answer<WindowLink>>;
  patchWindow(wid: string, patch: WindowPatch): Promise<Answer<{ window: WindowInfo }>>;
  closeWindow(wid: string): Promise<Answer<object>>;
  /** The dispatcher's `{ok, result | error}` as it answered; rejects on network or abort. */
  rpc(body: RpcBody, token: string, signal: AbortSignal): Promise<unknown>;
}

/**
 * `formFactor` says which container the links are for: a mobile one asks for `form_factor=mobile`
 * (the server then serves a view's `mobile_entry`); desktop, the default, asks for nothing.
 */
export function runtimeClient(
  apiBase: string,
  fetchFn: typeof fetch,
  formFactor: () => FormFactor = () => "desktop",
): RuntimeClient {
  const base = apiBase.replace(/\/+$/, "");
  const windows = `${base}/windows`;
  const one = (wid: string): string => `${windows}/${encodeURIComponent(wid)}`;
  const mobile = (): boolean => formFactor() === "mobile";

  const call = <T>(url: string, method: string, body?: unknown): Promise<Answer<T>> =>
    jsonRequest<T>(fetchFn, url, method, body);

  return {
    eventsUrl: `${base}/events/stream`,
    openWindow: (view, payload) =>
      call(windows, "POST", {
        view,
        ...(payload === undefined ? {} : { payload }),
        ...(mobile() ? { form_factor: "mobile" } : {}),
      }),
    windowLink: (wid) => call(mobile() ? `${one(wid)}?form_factor=mobile` : one(wid), "GET"),
    patchWindow: (wid, patch) => call(one(wid), "PATCH", patch),
    closeWindow: (wid) => call(one(wid), "DELETE"),
    async rpc(body, token, signal) {
      const res = await fetchFn(`${base}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Anna-App-Token": token },
        body: JSON.stringify(body),
        signal,
      });
      return res.json();
    },
  };
}

/**
 * One JSON request: `{ok: true, …body}` on a 2xx, else `{ok: false, error}` with the server's
 * `error` or `http_<status>`, and `network` when there was no answer. Never throws.
 */
export async function jsonRequest<T>(
  fetchFn: typeof fetch,
  url: string,
  method: string,
  body?: unknown,
): Promise<Answer<T>> {
  try {
    const res = await fetchFn(url, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.ok) return { ok: true, ...(answer as T) };
    const error = answer["error"] as WireError | undefined;
    return {
      ok: false,
      error: error ?? {
        code: `http_${res.status}`,
        message: `${method} ${url}: ${res.statusText}`,
      },
    };
  } catch (error) {
    return { ok: false, error: { code: "network", message: messageOf(error) } };
  }
}

export function messageOf(error: unknown): string {
  return String(error instanceof Error ? error.message : error);
}
