// Rewrites an app's manifest.json in place for a test (a grant, a view, a dev block).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The fields of the scaffolded manifest tests change; the rest is kept as read. */
export interface ScaffoldManifest {
  dev: Record<string, unknown>;
  ui: { views: Record<string, unknown>[]; host_api: Record<string, unknown> };
}

export function editManifest(dir: string, edit: (manifest: ScaffoldManifest) => void): void {
  const file = path.join(dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as ScaffoldManifest;
  edit(manifest);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
}
