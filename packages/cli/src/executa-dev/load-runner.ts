// Loading the implementation of `executa dev`. The compiled modules of the CLI, the host, the
// JSON-RPC layer and the schemas are a few hundred files; importing them one by one costs more
// than the whole one-shot overhead budget (≤ 150 ms over a bare spawn, bench/executa-dev). The
// build therefore also writes them as one file (scripts/bundle.mjs → dist/bundle/executa-dev.js),
// used while it is newer than every build it was made from, so a plain `tsc -b` never runs stale
// code. ANNA_CLI_NO_BUNDLE=1 forces the modules; ANNA_CLI_BUNDLE=1 uses the bundle whenever it
// exists (the benchmark, which builds it first, while other builds may run on the machine).
import { bundleIsFresh as isFresh } from "../cli/fresh-bundle.js";
import type { runExecutaDev } from "./run.js";

export interface ExecutaDevRunner {
  runExecutaDev: typeof runExecutaDev;
}

/** Relative to dist/executa-dev/. */
const BUNDLE = "../bundle/executa-dev.js";
/** Build stamps of the bundled projects (tsc -b rewrites them when it emits). */
const INPUT_STAMPS = [
  "../.tsbuildinfo",
  "../../../executa-host/dist/.tsbuildinfo",
  "../../../jsonrpc/dist/.tsbuildinfo",
  "../../../app-schema/dist/.tsbuildinfo",
];

export function bundleIsFresh(env: NodeJS.ProcessEnv = process.env): boolean {
  const url = (relative: string) => new URL(relative, import.meta.url);
  return isFresh(url(BUNDLE), INPUT_STAMPS.map(url), env, { allowForce: true });
}

export async function loadRunner(): Promise<ExecutaDevRunner> {
  if (bundleIsFresh()) return (await import(BUNDLE)) as ExecutaDevRunner;
  return import("./run.js");
}
