// Loading the implementation of `anna-app dev`. Its modules (the CLI's dev server, app-core,
// the host, the schemas, jose, zod) are several hundred files; importing them one by one was most
// of the start → dashboard-ready time (issue 5: ≤ 1 s; bench/app-dev). The build also writes them
// as one file (scripts/bundle-dev.mjs → dist/bundle/dev.js), used while it is newer than every
// build it was made from, so a plain `tsc -b` never runs stale code. ANNA_CLI_NO_BUNDLE=1 forces
// the modules; ANNA_CLI_BUNDLE=1 uses the bundle whenever it exists (the benchmark, which builds
// it first, while other builds may run on the machine).
import { bundleIsFresh } from "../cli/fresh-bundle.js";
import type * as Harness from "./harness-entry.js";

export type DevHarness = typeof Harness;

/** Relative to dist/dev/. */
const BUNDLE = "../bundle/dev.js";
/** Build stamps of the bundled projects (tsc -b rewrites them when it emits). */
const INPUT_STAMPS = [
  "../.tsbuildinfo",
  "../../../app-core/dist/.tsbuildinfo",
  "../../../app-schema/dist/.tsbuildinfo",
  "../../../executa-host/dist/.tsbuildinfo",
  "../../../jsonrpc/dist/.tsbuildinfo",
  "../../../skills/dist/.tsbuildinfo",
];

export function devBundleIsFresh(env: NodeJS.ProcessEnv = process.env): boolean {
  const url = (relative: string) => new URL(relative, import.meta.url);
  return bundleIsFresh(url(BUNDLE), INPUT_STAMPS.map(url), env, { allowForce: true });
}

export async function loadDevHarness(env: NodeJS.ProcessEnv = process.env): Promise<DevHarness> {
  if (devBundleIsFresh(env)) return (await import(BUNDLE)) as DevHarness;
  return import("./harness-entry.js");
}
