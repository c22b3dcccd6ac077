// @ts-check
// The page's postMessage bridge, which is the window host's (@anna-ai/app-runtime/host,
// docs/app-runtime.md part 2): a message is acted on only when it comes from an app iframe's
// contentWindow and names that iframe's own window; events reach an iframe only after its
// `window.hello` (A5).
import { desk } from "./frames.js";

export { relayEvent as relay } from "./window-host.js";

/** Starts answering the app iframes (and following the focus into them). */
export function startBridge() {
  desk().start();
}
