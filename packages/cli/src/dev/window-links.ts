// A window's dashboard link: the bundle URL with its id and a fresh token. The origin is known
// only once the server listens, so it is read when a link is made.
import type { Dispatcher } from "@anna-ai/app-core";
import { liveWindowLink, type WindowLink } from "@anna-ai/app-core/http";

export type { WindowLink } from "@anna-ai/app-core/http";

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
  const windowLink = (wid: string) => liveWindowLink(dispatcher, { userId }, wid, windowUrl);
  return { windowUrl, windowLink };
}
