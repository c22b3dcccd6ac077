// Running a generated app's own checks: its vitest bundle test with this repository's vitest.
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { REPO, run, type RunResult, testEnv } from "../executa-init/helpers.js";

export const VITEST = path.join(REPO, "node_modules/vitest/vitest.mjs");

/**
 * What `npm install && npm test` does in the app folder, without the network: link this
 * repository's vitest as the app's devDependency and run it. The outer vitest's own variables
 * are dropped so the inner run is a plain one.
 */
export async function runBundleTests(appDir: string): Promise<RunResult> {
  const modules = path.join(appDir, "node_modules");
  await mkdir(modules, { recursive: true });
  await symlink(path.join(REPO, "node_modules/vitest"), path.join(modules, "vitest"), "dir");
  const env = testEnv({ CI: "1" });
  for (const key of Object.keys(env)) {
    if (key.startsWith("VITEST") || key === "TEST" || key === "NODE_OPTIONS") delete env[key];
  }
  return run(process.execPath, [VITEST, "run"], { cwd: appDir, env });
}
