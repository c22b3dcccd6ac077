// The web dashboard (@anna-ai/dashboard) at `/`: its built files from one folder, index.html for
// every client route (the dashboard routes in the page, so a reload of /store/focus-flow must
// answer the page), hashed files under /assets/ cached for a year, index.html revalidated on
// every load so a new build is seen at once. Mounted after every other route: a path another
// route answers never gets here, and server namespaces (/api/, /anna-apps/, /.well-known/) keep
// their JSON 404 instead of the page.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { Ctx, Env } from "../http/context.js";
import { escapeHtml, setDashboardHeaders, setPageHeaders } from "../http/page-headers.js";

/** Vite's hashed output: the name changes with the content, so it may be cached for good. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";
const SERVER_PREFIXES = ["/api/", "/anna-apps/", "/.well-known/", "/static/anna-apps/"];
/** Where bundles import the app SDK from (spec "App UI SDK"), and its file in the dashboard's dist. */
export const APP_SDK_ROUTE = "/static/anna-apps/_sdk/latest/index.js";
export const APP_SDK_FILE = "app-sdk/index.js";
/** The file names Vite writes (`index-CZ4aMTLj.js`, `favicon.svg`): no folders, no dot-files. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

export interface DashboardFiles {
  /** The dashboard's `dist/` folder; undefined when the package is not installed. */
  distDir: string | undefined;
}

export async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

function file(c: Ctx, bytes: Buffer, name: string, cache: string): Response {
  setDashboardHeaders(c, cache);
  c.header("Content-Type", CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream");
  return c.body(new Uint8Array(bytes));
}

/** What a server whose dashboard was never built answers at `/`: how to build it. */
export function notBuilt(c: Ctx, distDir: string | undefined, page = "index.html"): Response {
  setPageHeaders(c);
  const where =
    distDir === undefined
      ? "the <code>@anna-ai/dashboard</code> package is not installed next to <code>@anna-ai/nexus</code>"
      : `no <code>${escapeHtml(page)}</code> in <code>${escapeHtml(distDir)}</code>`;
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built — Anna Nexus</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .2rem}</style></head>
<body><h1>The dashboard is not built</h1>
<p>This Nexus serves its web dashboard from built files, and there are none: ${where}.</p>
<p>In a checkout of the repository, run <code>npm run build</code> (or only the dashboard:
<code>node packages/dashboard/scripts/build.mjs</code>), then reload this page. The API at
<code>/api/v1/</code> works without it.</p></body></html>`,
    503,
  );
}

export function dashboardRoutes(files: DashboardFiles): Hono<Env> {
  const app = new Hono<Env>();
  const { distDir } = files;
  const index = async (c: Ctx) => {
    const html =
      distDir === undefined ? undefined : await readIfFile(path.join(distDir, "index.html"));
    return html === undefined ? notBuilt(c, distDir) : file(c, html, "index.html", REVALIDATE);
  };

  app.get("/assets/:name", async (c, next) => {
    const name = c.req.param("name");
    const bytes =
      distDir !== undefined && FILE_NAME.test(name)
        ? await readIfFile(path.join(distDir, "assets", name))
        : undefined;
    // A missing script must be a 404, never the page: a module load would fail on HTML anyway.
    if (bytes === undefined) return next();
    return file(c, bytes, name, IMMUTABLE);
  });

  // The app SDK every bundle imports (`import … from "/static/anna-apps/_sdk/latest/index.js"`),
  // built into the dashboard's files with the frame host that speaks to it. Bundles run in an
  // opaque origin, so the module load is a CORS request: it must allow any origin and be
  // embeddable cross-origin (no cookie makes it differ per person).
  app.get(APP_SDK_ROUTE, async (c) => {
    const bytes =
      distDir === undefined ? undefined : await readIfFile(path.join(distDir, APP_SDK_FILE));
    if (bytes === undefined) {
      throw new NexusError(
        "not_found",
        `the app SDK is not built (no ${APP_SDK_FILE} in the dashboard's files); run npm run build`,
      );
    }
    c.header("Content-Type", CONTENT_TYPES[".js"]);
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", REVALIDATE);
    return c.body(new Uint8Array(bytes));
  });

  app.get("/*", async (c, next) => {
    const p = c.req.path;
    if (SERVER_PREFIXES.some((prefix) => p.startsWith(prefix)) || p.startsWith("/assets/")) {
      return next();
    }
    const name = p.slice(1);
    if (distDir !== undefined && FILE_NAME.test(name) && name !== "index.html") {
      const bytes = await readIfFile(path.join(distDir, name));
      if (bytes !== undefined) return file(c, bytes, name, REVALIDATE);
    }
    return index(c);
  });
  return app;
}
