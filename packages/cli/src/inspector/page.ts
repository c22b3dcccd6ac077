// The inspector page and its assets: plain HTML, CSS and one ES module under
// src/inspector/browser/, read once and served from memory. No build step and no inline script,
// so the page runs under `Content-Security-Policy: default-src 'self'`. The path goes through
// the package root, so it resolves the same from src/ and dist/ (the files ship in `src`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const INSPECTOR_DIR = fileURLToPath(
  new URL("../../src/inspector/browser/", import.meta.url),
);
/** Where the page loads its assets from. */
export const INSPECTOR_ASSET_PREFIX = "/inspector/";

const ASSETS: Readonly<Record<string, string>> = {
  "inspector.js": "application/javascript; charset=utf-8",
  "inspector.css": "text/css; charset=utf-8",
};

export interface InspectorAsset {
  body: Buffer;
  contentType: string;
}

let loaded: { html: Buffer; assets: Map<string, InspectorAsset> } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded !== undefined) return loaded;
  const assets = new Map<string, InspectorAsset>();
  for (const [name, contentType] of Object.entries(ASSETS)) {
    assets.set(name, { body: readFileSync(path.join(INSPECTOR_DIR, name)), contentType });
  }
  loaded = { html: readFileSync(path.join(INSPECTOR_DIR, "page.html")), assets };
  return loaded;
}

export function inspectorHtml(): Buffer {
  return load().html;
}

/** The asset for a request path like `/inspector/inspector.js`, or undefined. */
export function inspectorAsset(pathname: string): InspectorAsset | undefined {
  if (!pathname.startsWith(INSPECTOR_ASSET_PREFIX)) return undefined;
  return load().assets.get(pathname.slice(INSPECTOR_ASSET_PREFIX.length));
}
