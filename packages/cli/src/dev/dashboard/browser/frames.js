// @ts-check
// The dashboard's window host: the page's one `createWindowHost` (@anna-ai/app-runtime/host, served
// as ./window-host.js; frames, dock, bridge, event relay) with what only the harness does: a
// dropped message or a refused request is logged in the panel, and `auth.refresh`'s token is
// minted and recorded by the harness (POST /dev/api/events, so the session's recording holds the
// refresh, A10) instead of asked of the windows API. The names below are what the page's other
// modules and the iframe-host browser test use.
import { createWindowHost } from "./window-host.js";
import { publishEvent } from "./harness-api.js";
import { logDropped, logEvent } from "./panel.js";

/**
 * @typedef {import("./window-host.js").WindowHost} WindowHost
 * @typedef {import("./window-host.js").HostedFrame} Frame
 * @typedef {import("./window-host.js").HostReport} HostReport
 * @typedef {import("./window-host.js").TokenAnswer} TokenAnswer
 */

/** @type {WindowHost | undefined} */
let host;

/** The page's window host (after `initDesk`). */
export function desk() {
  if (host === undefined) throw new Error("the desk is not set up: call initDesk() first");
  return host;
}

/**
 * @param {{ frames: HTMLElement, dock: HTMLElement, views: import("./window-host.js").ViewSpec[] }} desk
 * @returns {WindowHost}
 */
export function initDesk({ frames, dock, views }) {
  host = createWindowHost({
    container: frames,
    dock,
    views,
    serverName: "the harness",
    onReport: report,
    refreshToken: mintToken,
  });
  return host;
}

/** @param {HostReport} r */
function report(r) {
  if (r.kind === "dropped") logDropped(r.reason, r.origin, r.data);
  else if (r.kind === "bad_event") logEvent(`unreadable event: ${r.reason}`, r.data, "error");
  else if (r.action === "patch")
    logEvent(
      `PATCH ${r.wid} refused: ${r.error.code}: ${r.error.message}`,
      { patch: r.patch, error: r.error },
      "error",
    );
  else logEvent(`close ${r.wid} refused: ${r.error.code}: ${r.error.message}`, r.error, "error");
}

/**
 * `auth.refresh` from the harness, recorded: its `expires_in`, never the token.
 * @param {string} wid
 * @returns {Promise<TokenAnswer>}
 */
async function mintToken(wid) {
  const out = await publishEvent("auth.refresh", wid);
  if (!out.ok) return out;
  const { token, expires_in } = out.page_event.payload;
  return { ok: true, token, expires_in };
}

/**
 * Adds a frame for a window (`win` as the windows API shows it) unless it has one.
 * @param {import("./window-host.js").WindowInfo} win
 * @param {string} url
 * @returns {Frame}
 */
export function addFrame(win, url) {
  return desk().open(win, url);
}

export const allFrames = () => desk().frames();
export const frameById = (/** @type {string} */ wid) => desk().frame(wid);
export const focusedFrame = () => desk().focused();
/** @param {MessageEventSource | null} source */
export const frameOf = (source) => desk().frameOf(source);
/** @param {() => void} listener */
export const onFramesChanged = (listener) => desk().onChange(listener);
