// The built dashboard a browser test serves: its dist/ folder, checked before the test's Nexus
// starts, so a missing build is one clear error and not a page of failed locators.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findDashboardDist } from "@anna-ai/nexus";

export const DASHBOARD_DIST = fileURLToPath(new URL("../dist/", import.meta.url));

/**
 * `startTestNexus`'s `dashboard` option: the dist/ folder Nexus itself finds (this package's, in
 * the monorepo). Throws how to build it when `page` (default the dashboard's index.html) is not there.
 */
export function builtDashboard(page = "index.html"): { distDir: string } {
  const distDir = findDashboardDist() ?? DASHBOARD_DIST;
  if (!existsSync(path.join(distDir, page))) {
    throw new Error(
      `no built ${page} in ${distDir}: run \`npm run build\` (or node packages/dashboard/scripts/build.mjs) first`,
    );
  }
  return { distDir };
}
