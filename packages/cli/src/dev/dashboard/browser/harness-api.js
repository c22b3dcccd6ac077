// The harness's REST routes as the dashboard uses them: the production windows API
// (`/api/v1/anna-apps/runtime/windows`) and the dev-only simulate route. Every function answers
// `{ok: true, …}` or `{ok: false, error: {code, message}}`; none throws on an HTTP error.

export const RPC = "/api/v1/anna-apps/runtime/rpc";
export const EVENTS = "/api/v1/anna-apps/runtime/events/stream";
const WINDOWS = "/api/v1/anna-apps/runtime/windows";

async function call(url, init) {
  try {
    const res = await fetch(url, {
      ...init,
      headers: { "content-type": "application/json" },
    });
    const body = await res.json();
    if (res.ok) return { ok: true, ...body };
    return {
      ok: false,
      error: body.error ?? { code: "http_" + res.status, message: res.statusText },
    };
  } catch (error) {
    return { ok: false, error: { code: "network", message: String(error?.message ?? error) } };
  }
}

const json = (method, body) => ({ method, body: JSON.stringify(body) });

/** POST /windows: `{window, token, url, reused}`; a single-instance view answers `reused: true`. */
export const openWindow = (view) => call(WINDOWS, json("POST", { view }));

/** GET /windows/{wid}: the window with a freshly minted token and its iframe URL. */
export const windowLink = (wid) => call(WINDOWS + "/" + encodeURIComponent(wid));

/** PATCH /windows/{wid}: `{geometry}`, `{status}`, `{title}`, `{focus: true}`; answers `{window}`. */
export const patchWindow = (wid, patch) =>
  call(WINDOWS + "/" + encodeURIComponent(wid), json("PATCH", patch));

export const closeWindow = (wid) =>
  call(WINDOWS + "/" + encodeURIComponent(wid), { method: "DELETE" });

/**
 * POST /dev/api/events: the harness validates and publishes an AnnaAppEvent (`{event}`), or
 * records a page-local one and answers what to post (`{page_event: {name, window_uuid, payload}}`).
 */
export const publishEvent = (kind, windowUuid, payload) =>
  call("/dev/api/events", json("POST", { kind, window_uuid: windowUuid, payload }));
