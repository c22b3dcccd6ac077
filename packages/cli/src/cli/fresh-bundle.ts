// The CLI's fast paths load a single-file bundle instead of a few hundred modules, under the
// freshness rule the plugin SDK's entry uses too (`@anna-ai/executa-sdk/fresh-bundle`). This file
// maps the CLI's switches onto it: ANNA_CLI_NO_BUNDLE=1 forces the modules, ANNA_CLI_BUNDLE=1
// (with `allowForce`) uses the bundle whenever it exists.
import { bundleIsFresh as isFresh } from "@anna-ai/executa-sdk/fresh-bundle";

export interface FreshBundleOptions {
  /** Honour ANNA_CLI_BUNDLE=1: use the bundle whenever it exists (benchmarks). */
  allowForce?: boolean;
}

/** `stamps` are the `.tsbuildinfo` files of the bundled projects (tsc -b rewrites them). */
export function bundleIsFresh(
  bundle: URL,
  stamps: readonly URL[],
  env: NodeJS.ProcessEnv,
  options: FreshBundleOptions = {},
): boolean {
  return isFresh(bundle, stamps, {
    off: env.ANNA_CLI_NO_BUNDLE === "1",
    force: options.allowForce === true && env.ANNA_CLI_BUNDLE === "1",
  });
}
