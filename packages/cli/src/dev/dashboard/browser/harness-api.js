// The harness's dev-only REST route the dashboard calls itself (the runtime routes are the window
// host's). Answers `{ok: true, …}` or `{ok: false, error: {code, message}}`; never throws on an
// HTTP error.
import { jsonRequest } from "./window-host.js";

/**
 * POST /dev/api/events: the harness validates and publishes an AnnaAppEvent (`{event}`), or
 * records a page-local one and answers what to post (`{page_event: {name, window_uuid, payload}}`).
 * @param {string} kind
 * @param {string | null} windowUuid
 * @param {unknown} [payload]
 * @returns {Promise<import("./window-host.js").Answer<{ event?: unknown, page_event: { name: string, window_uuid: string, payload: any } }>>}
 */
export const publishEvent = (kind, windowUuid, payload) =>
  jsonRequest(globalThis.fetch.bind(globalThis), "/dev/api/events", "POST", {
    kind,
    window_uuid: windowUuid,
    payload,
  });

/**
 * POST /dev/api/executas/{tool_id}/inspect: starts (once) the plugin inspector for that executa
 * and answers its URL, which carries the inspector's token.
 * @param {string} toolId
 * @returns {Promise<import("./window-host.js").Answer<{ inspector: { tool_id: string, url: string } }>>}
 */
export const openInspector = (toolId) =>
  jsonRequest(
    globalThis.fetch.bind(globalThis),
    "/dev/api/executas/" + encodeURIComponent(toolId) + "/inspect",
    "POST",
    {},
  );
