// What a browser loads: the dashboard page and its assets, the app SDK, and the app's bundle.
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveBundleFile, type BundleServerOptions } from "../bundle-files.js";
import { dashboardAsset, dashboardHtml } from "../dashboard-page.js";
import { headerOf, sendError } from "../http-util.js";

export const SDK_ROUTE = "/static/anna-apps/_sdk/latest/index.js";

export interface PageRouteDeps {
  slug: string;
  sdk: Buffer;
  devState(): Promise<Record<string, unknown>>;
  bundleOptions(): BundleServerOptions;
}

/** Handles the page routes; false for any other request. */
export async function pageRoute(
  req: IncomingMessage,
  res: ServerResponse,
  p: string,
  deps: PageRouteDeps,
): Promise<boolean> {
  const method = req.method ?? "GET";
  if (p === "/" && method === "GET") {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
    });
    res.end(dashboardHtml(await deps.devState()));
    return true;
  }
  const asset = method === "GET" ? dashboardAsset(p) : undefined;
  if (asset !== undefined) {
    res.writeHead(200, { "Content-Type": asset.contentType, "Cache-Control": "no-store" });
    res.end(asset.body);
    return true;
  }
  if (p === SDK_ROUTE) {
    res.writeHead(200, {
      "Content-Type": "application/javascript; charset=utf-8",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    });
    res.end(deps.sdk);
    return true;
  }
  const bundlePrefix = `/anna-apps/${deps.slug}/dev/`;
  const rawPath = (req.url ?? "/").split("?", 1)[0] ?? "/";
  if (rawPath.startsWith(bundlePrefix) && (method === "GET" || method === "HEAD")) {
    const answer = await serveBundleFile(deps.bundleOptions(), {
      rawPath: rawPath.slice(bundlePrefix.length),
      fetchDest: headerOf(req, "sec-fetch-dest"),
    });
    if (answer.status === 200) {
      res.writeHead(200, { ...answer.headers, "Content-Length": String(answer.body.length) });
      res.end(method === "HEAD" ? undefined : answer.body);
    } else {
      sendError(res, answer.status, answer.code, answer.message);
    }
    return true;
  }
  return false;
}
