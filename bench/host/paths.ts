// Where the benchmark's files live, whether it runs compiled (bench/dist/host/*.js) or from source
// through tsx (bench/host/*.ts): plugins stay as plain .mjs files in bench/host/plugins.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

function findHostSourceDir(): string {
  const candidates = [HERE, resolve(HERE, "../../host")];
  for (const dir of candidates) {
    if (existsSync(join(dir, "plugins", "floor-plugin.mjs"))) return dir;
  }
  throw new Error(`bench/host/plugins not found from ${HERE}`);
}

export const HOST_SOURCE_DIR = findHostSourceDir();
export const BENCH_DIR = resolve(HOST_SOURCE_DIR, "..");
export const REPO_DIR = resolve(BENCH_DIR, "..");
export const PLUGINS_DIR = join(HOST_SOURCE_DIR, "plugins");
/** The compiled worker next to this module (same extension: .js compiled, .ts under tsx). */
export const WORKER_PATH = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./worker.ts" : "./worker.js", import.meta.url),
);
export const DEFAULT_JSON_PATH = join(BENCH_DIR, "results", "host.json");

export function pluginPath(file: string): string {
  return join(PLUGINS_DIR, file);
}
