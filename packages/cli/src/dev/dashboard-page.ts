// The dashboard page (`/`) and its assets (`/dev/<file>`): plain HTML, CSS and vanilla ES modules
// under src/dev/dashboard/browser/ (the developer panel, the simulate form, the page's wiring),
// read once and served from memory, plus the window host they build on (frames, dock, the
// parent-page bridge of docs/app-runtime.md part 2), `@anna-ai/app-runtime/host` as its browser
// bundle, served as `/dev/window-host.js`. Nothing to build here: the files ship in the package
// (`files` lists `src`), and the path goes through the package root so it resolves the same from
// src/ (tests) and dist/ (the CLI).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AppManifest } from "@anna-ai/app-schema";
import { SIMULATED_KINDS } from "./dashboard/simulate-event.js";

export const DASHBOARD_DIR = fileURLToPath(
  new URL("../../src/dev/dashboard/browser/", import.meta.url),
);
/** Where the page loads its assets from. */
export const DASHBOARD_ASSET_PREFIX = "/dev/";
/** The window host's asset name: the browser modules import `./window-host.js`. */
export const WINDOW_HOST_ASSET = "window-host.js";

const JS_TYPE = "application/javascript; charset=utf-8";
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": JS_TYPE,
  ".css": "text/css; charset=utf-8",
};

export interface DashboardAsset {
  body: Buffer;
  contentType: string;
}

let loaded: { html: string; assets: Map<string, DashboardAsset> } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded !== undefined) return loaded;
  const assets = new Map<string, DashboardAsset>();
  for (const name of readdirSync(DASHBOARD_DIR)) {
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (contentType === undefined) continue;
    assets.set(name, { body: readFileSync(path.join(DASHBOARD_DIR, name)), contentType });
  }
  assets.set(WINDOW_HOST_ASSET, { body: readWindowHost(), contentType: JS_TYPE });
  loaded = { html: readFileSync(path.join(DASHBOARD_DIR, "page.html"), "utf8"), assets };
  return loaded;
}

/** The window host's browser bundle, or an error that says how to build it. */
function readWindowHost(): Buffer {
  let file: string | undefined;
  try {
    file = createRequire(import.meta.url).resolve("@anna-ai/app-runtime/host-bundle");
    return readFileSync(file);
  } catch (error) {
    throw new Error(
      `the window host bundle is missing (${file ?? "@anna-ai/app-runtime/host-bundle"}); run npm run build`,
      { cause: error },
    );
  }
}

/** The asset for a request path like `/dev/main.js`, or undefined (only the listed files). */
export function dashboardAsset(pathname: string): DashboardAsset | undefined {
  if (!pathname.startsWith(DASHBOARD_ASSET_PREFIX)) return undefined;
  return load().assets.get(pathname.slice(DASHBOARD_ASSET_PREFIX.length));
}

/** The page with the harness state inlined (`<` escaped so no value can close the script). */
export function dashboardHtml(state: unknown): string {
  const json = JSON.stringify(state).replace(/</g, "\\u003c");
  // A function, not a string: a replacement string expands `$&`, `$'`… found in any value.
  return load().html.replace("__BOOT_STATE__", () => json);
}

/** What the page needs to know about the views: names, titles and the sizes frames clamp to. */
export function dashboardViews(manifest: AppManifest): Record<string, unknown>[] {
  return (manifest.ui?.views ?? []).map((view) => ({
    name: view.name,
    title: view.title ?? view.name,
    default_size: view.default_size ?? null,
    min_size: view.min_size ?? null,
    max_size: view.max_size ?? null,
    single_instance: view.single_instance === true,
  }));
}

/** The boot state's dashboard part: view specs and the simulate form's kinds. */
export function dashboardBootState(manifest: AppManifest): Record<string, unknown> {
  return { view_specs: dashboardViews(manifest), simulate: SIMULATED_KINDS };
}
