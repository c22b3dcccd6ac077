// A window's link: the live window with a fresh token and the URL its frame loads. Where the
// bundle is served differs (the harness's own origin, the platform's CDN), so the URL builder is
// the caller's.
import type { HostApiDispatcher } from "../index.js";

/** May look up where the version's bundle is (Nexus names it by the app's slug). */
export type WindowUrl = (windowUuid: string, token: string) => string | Promise<string>;

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
): Promise<WindowLink | undefined> {
  const { userId, appId } = caller;
  const win = await dispatcher.getWindow(windowUuid, appId);
  if (win === undefined || win.status === "closed" || win.status === "crashed") return undefined;
  // Another user's window is not found either: the mint checks the owner.
  const { token, expires_in } = await dispatcher.mintToken(windowUuid, userId, appId);
  return { window: win, token, expires_in, url: await windowUrl(windowUuid, token) };
}
