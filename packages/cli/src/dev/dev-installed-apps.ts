// `manifest.dev.installed_apps` (our extension of the open `dev` block, L4994–L5021): the other
// apps `apps.list/search/get` and the deck see in `anna-app dev`, besides the app under
// development, e.g.
//   "dev": {"installed_apps": [{"slug": "notes", "handle": "acme", "name": "Notes", "views": ["main"]}]}
// The harness runs one app, so launching one of these answers `not_implemented` (no AppsCatalog
// launch). A wrong shape is a launch error naming the path (dev-block-records.ts).
import type { InstalledApp } from "@anna-ai/app-schema";
import type { AppsCatalog } from "@anna-ai/app-core";
import { devBlockKey } from "./dev-block-records.js";

const OPTIONAL_STRINGS = ["app_id", "handle", "name", "description", "icon_url"] as const;

export function devInstalledApps(dev: unknown): AppsCatalog | undefined {
  const { raw, fail, record } = devBlockKey(dev, "installed_apps");
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    throw fail("", 'must be an array of apps, e.g. [{"slug": "notes", "views": ["main"]}]');
  }
  const apps = raw.map((entry: unknown, i): InstalledApp => {
    const at = `[${i}]`;
    const e = record(entry, at, "slug", OPTIONAL_STRINGS);
    const views = e.views ?? ["main"];
    if (!Array.isArray(views) || !views.every((v) => typeof v === "string" && v !== "")) {
      throw fail(`${at}.views`, 'must be an array of view names, e.g. ["main"]');
    }
    return {
      app_id: typeof e.app_id === "string" ? e.app_id : e.slug,
      slug: e.slug,
      handle: typeof e.handle === "string" ? e.handle : null,
      name: typeof e.name === "string" ? e.name : e.slug,
      description: typeof e.description === "string" ? e.description : null,
      icon_url: typeof e.icon_url === "string" ? e.icon_url : null,
      views: (views as string[]).map((name, index) => ({
        name,
        ...(index === 0 ? { default: true } : {}),
      })),
    };
  });
  return { list: () => apps };
}
