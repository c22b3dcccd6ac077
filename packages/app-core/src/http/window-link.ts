// A window's link: the live window with a fresh token and the URL its frame loads. Where the
// bundle is served differs (the harness's own origin, the platform's CDN), so the URL builder is
// the caller's.
import type { FormFactor } from "@anna-ai/app-schema";
import type { HostApiDispatcher } from "../index.js";

/**
 * Which frame the URL is for: the window's view, and the container opening it. A mobile
 * container is served the view's `mobile_entry` when the app declares `"mobile"` (L6854).
 */
export interface WindowUrlContext {
  view?: string;
  formFactor?: FormFactor;
}

/** May look up where the version's bundle is (Nexus names it by the app's slug). */
export type WindowUrl = (
  windowUuid: string,
  token: string,
  context?: WindowUrlContext,
) => string | Promise<string>;

export interface WindowLink {
  window: Record<string, unknown>;
  token: string;
  expires_in: number;
  url: string;
}

/** The live window with a fresh token and its URL; undefined for a closed or crashed one. */
export async function liveWindowLink(
  dispatcher: HostApiDispatcher,
  caller: { userId: string; appId?: string },
  windowUuid: string,
  windowUrl: WindowUrl,
  formFactor?: FormFactor,
): Promise<WindowLink | undefined> {
  const { userId, appId } = caller;
  const win = await dispatcher.getWindow(windowUuid, appId);
  if (win === undefined || win.status === "closed" || win.status === "crashed") return undefined;
  // Another user's window is not found either: the mint checks the owner.
  const { token, expires_in } = await dispatcher.mintToken(windowUuid, userId, appId);
  const context: WindowUrlContext = {
    ...(typeof win["view"] === "string" ? { view: win["view"] } : {}),
    ...(formFactor === undefined ? {} : { formFactor }),
  };
  return { window: win, token, expires_in, url: await windowUrl(windowUuid, token, context) };
}
