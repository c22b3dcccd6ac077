/** Where the SDK learns its window: the iframe URL and, for the host origin, the referrer. */
export interface LaunchEnvironment {
  /** `location.href` of the iframe document. */
  href: string;
  /** `document.referrer`: the embedding page's URL unless a referrer policy strips it. */
  referrer?: string;
  /** `location.ancestorOrigins` where the browser has it (Chromium, WebKit). */
  ancestorOrigins?: ArrayLike<string>;
}

export interface LaunchParams {
  windowUuid: string;
  token: string;
}

/** `?wid=…&t=…` from the iframe URL (L6153), or undefined when either is missing. */
export function readLaunchParams(href: string): LaunchParams | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const windowUuid = url.searchParams.get("wid");
  const token = url.searchParams.get("t");
  if (windowUuid === null || windowUuid === "" || token === null || token === "") return undefined;
  return { windowUuid, token };
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined || url === "") return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The host page's origin, for `postMessage(…, targetOrigin)` and for checking answers. An explicit
 * `hostOrigin` wins; then the parent's origin as the browser reports it (`ancestorOrigins[0]`,
 * the referrer); then the origin of the iframe URL itself, since both the dashboard and
 * `anna-app dev` serve bundles from their own origin (L5930, A8). A sandboxed iframe's own
 * origin is `"null"`, but its URL still names the server it came from.
 */
export function resolveHostOrigin(env: LaunchEnvironment, explicit?: string): string | undefined {
  if (explicit !== undefined && explicit !== "")
    return explicit === "*" ? "*" : (originOf(explicit) ?? explicit);
  const ancestor = env.ancestorOrigins?.[0];
  if (ancestor !== undefined && ancestor !== "null" && ancestor !== "") return ancestor;
  return originOf(env.referrer) ?? originOf(env.href);
}
