// What every server of a UI bundle shares (the `anna-app dev` harness and Nexus): how a request
// path becomes a bundle-relative path, the response headers of L5908–L5923, and the entry-HTML
// framing rule. Platform-neutral, so both servers answer the same way.
import { bundlePathProblem } from "./ui-bundle.js";
import { buildBundleCsp, serializeCsp } from "./ui-csp.js";

/**
 * The sandbox of every app frame, never with `allow-same-origin` (A5): the app's origin stays
 * opaque. The parent page sets it on the iframe; the bundle's CSP repeats it as a `sandbox`
 * directive, so a bundle document opened any other way (a top-level navigation from an old
 * browser, a frame built without the attribute) is just as confined and never runs with the
 * server's origin, where the API and its session cookie live.
 */
export const BUNDLE_FRAME_SANDBOX = "allow-scripts allow-forms allow-popups allow-downloads";

/** The part of a manifest's `ui` the headers depend on. */
export interface BundleHeaderSource {
  csp_overrides?: Readonly<Record<string, readonly string[]>> | null | undefined;
  bundle: { external_origins?: readonly string[] | null | undefined };
}

/**
 * The raw (still percent-encoded) path after the bundle's base URL → a bundle-relative file
 * path, or why it is refused. Decoded once, so a double-encoded `%252e` keeps its `%` and fails
 * the character rule; an encoded `?` or `#` is refused too (it would hide the rest of the path
 * from `bundlePathProblem`). The empty path and a folder map to `entry` inside it.
 */
export function decodeBundlePath(rawPath: string, entry: string): string | { problem: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { problem: "malformed percent-encoding" };
  }
  if (decoded === "" || decoded.endsWith("/")) decoded += entry;
  if (decoded.includes("\0")) return { problem: "must not contain NUL" };
  if (/[?#]/.test(decoded)) return { problem: 'must not contain an encoded "?" or "#"' };
  const problem = bundlePathProblem(decoded);
  return problem === undefined ? decoded : { problem };
}

/** The file of `ui.bundle.entry` (`index.html#/chart` → `index.html`), default `index.html`. */
export function bundleEntryFile(entry: string | undefined): string {
  return entry?.split(/[?#]/, 1)[0] || "index.html";
}

/**
 * The security headers of every bundle file: the per-bundle CSP (base + `external_origins` +
 * the allowed overrides, then the frame's sandbox), nosniff, the Permissions-Policy and
 * no Referer. Cross-origin resource policy is
 * `cross-origin`, not the spec's `same-origin` (L5914): the frame is sandboxed without
 * `allow-same-origin` (A5), so its origin is opaque and `same-origin` would block the app's own
 * scripts, styles and images (D-cli-dev-1). Caching is the caller's: it differs per server.
 */
export function bundleSecurityHeaders(
  ui: BundleHeaderSource | null | undefined,
  sdkOrigin: string,
): Record<string, string> {
  const csp = buildBundleCsp(
    ui?.csp_overrides ?? undefined,
    ui?.bundle.external_origins ?? [],
    sdkOrigin,
  );
  return {
    "Content-Security-Policy": `${serializeCsp(csp)}; sandbox ${BUNDLE_FRAME_SANDBOX}`,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    // The entry's URL carries the window token (`?t=`): no Referer may repeat it.
    "Referrer-Policy": "no-referrer",
  };
}

/**
 * L5922: HTML is served only into a frame. A browser always sends `Sec-Fetch-Dest`; when it is
 * there and not `iframe`, the request is a top-level navigation (or an embed) and is refused.
 * Without the header (curl, tests) the file is served. Applied to every `.html` file, not only
 * the entry, since any of them would run with the bundle's origin.
 */
export function mustBeIframed(relativePath: string, fetchDest: string | undefined): boolean {
  return /\.html?$/i.test(relativePath) && fetchDest !== undefined && fetchDest !== "iframe";
}
