// What a browser loads: the dashboard page and its assets, the app SDK, and the app's bundle.
import type { Hono } from "hono";
import { errorResponse } from "@anna-ai/app-core/http";
import { serveBundleFile, type BundleServerOptions } from "../bundle-files.js";
import { dashboardAsset, dashboardHtml } from "../dashboard-page.js";
import { rawPathOf, type DevEnv } from "./request-target.js";

export const SDK_ROUTE = "/static/anna-apps/_sdk/latest/index.js";

export interface PageRouteDeps {
  slug: string;
  sdk: Buffer;
  devState(): Promise<Record<string, unknown>>;
  bundleOptions(): BundleServerOptions;
}

/** Adds the page routes; they are not origin-guarded (the app's iframe loads the SDK and bundle). */
export function addPageRoutes(app: Hono<DevEnv>, deps: PageRouteDeps): void {
  // Hono answers HEAD with a GET route; the harness answers HEAD for the bundle only.
  app.get("/", async (c, next) => {
    if (c.req.method === "HEAD") return next();
    return new Response(dashboardHtml(await deps.devState()), {
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    });
  });
  app.get("*", async (c, next) => {
    const asset = c.req.method === "GET" ? dashboardAsset(new URL(c.req.url).pathname) : undefined;
    if (asset === undefined) return next();
    return new Response(asset.body, {
      headers: { "Content-Type": asset.contentType, "Cache-Control": "no-store" },
    });
  });
  // Any method, as before the move: the SDK is one immutable file.
  app.all(SDK_ROUTE, () => {
    return new Response(deps.sdk, {
      headers: {
        "Content-Type": "application/javascript; charset=utf-8",
        "Access-Control-Allow-Origin": "*",
        "Cross-Origin-Resource-Policy": "cross-origin",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      },
    });
  });
  const bundlePrefix = `/anna-apps/${deps.slug}/dev/`;
  app.get("*", async (c, next) => {
    const rawPath = rawPathOf(c);
    if (!rawPath.startsWith(bundlePrefix)) return next();
    const answer = await serveBundleFile(deps.bundleOptions(), {
      rawPath: rawPath.slice(bundlePrefix.length),
      fetchDest: c.req.header("sec-fetch-dest"),
    });
    if (answer.status !== 200) return errorResponse(answer.code, answer.message);
    const headers = { ...answer.headers, "Content-Length": String(answer.body.length) };
    // Hono drops the body of a HEAD answer, keeping its headers.
    return new Response(answer.body, { status: 200, headers });
  });
}
