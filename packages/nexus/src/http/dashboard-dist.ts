// Where the web dashboard's built files are: the `dist/` folder beside the installed
// @anna-ai/dashboard package's package.json (a workspace link in a checkout, a dependency of
// @anna-ai/nexus when installed from packs/). Only the server's start-up calls this.
import { createRequire } from "node:module";
import path from "node:path";

export function findDashboardDist(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@anna-ai/dashboard/package.json");
    return path.join(path.dirname(manifest), "dist");
  } catch {
    return undefined;
  }
}
