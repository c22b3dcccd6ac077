// A window's dashboard link: the bundle URL with its id and a fresh token. The origin is known
// only once the server listens, so it is read when a link is made.
import type { Dispatcher } from "@anna-ai/app-core";

export interface WindowLink {
  window: Record<string, unknown>;
  token: string;
  expires_in: number;
  url: string;
}

export interface WindowLinks {
  windowUrl(wid: string, token: string): string;
  /** The live window with a fresh token and its URL; undefined for a closed or crashed one. */
  windowLink(wid: string): Promise<WindowLink | undefined>;
}

export function createWindowLinks(deps: {
  dispatcher: Dispatcher;
  userId: string;
  slug: string;
  origin(): string;
}): WindowLinks {
  const { dispatcher, userId, slug } = deps;
  const windowUrl = (wid: string, token: string) =>
    `${deps.origin()}/anna-apps/${encodeURIComponent(slug)}/dev/index.html?wid=${encodeURIComponent(wid)}&t=${encodeURIComponent(token)}`;
  const windowLink = async (wid: string) => {
    const win = await dispatcher.getWindow(wid);
    if (win === undefined || win.status === "closed" || win.status === "crashed") return undefined;
    const { token, expires_in } = await dispatcher.mintToken(wid, userId);
    return { window: win, token, expires_in, url: windowUrl(wid, token) };
  };
  return { windowUrl, windowLink };
}
