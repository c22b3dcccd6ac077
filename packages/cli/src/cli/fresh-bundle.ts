// The CLI's fast paths load a single-file bundle instead of a few hundred modules, but only while
// the bundle is newer than every build it was made from, so a plain `tsc -b` never runs stale
// code. ANNA_CLI_NO_BUNDLE=1 forces the modules.
import { statSync } from "node:fs";

export interface FreshBundleOptions {
  /** Honour ANNA_CLI_BUNDLE=1: use the bundle whenever it exists (benchmarks). */
  allowForce?: boolean;
}

function mtimeMs(url: URL): number | undefined {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
}

/** `stamps` are the `.tsbuildinfo` files of the bundled projects (tsc -b rewrites them). */
export function bundleIsFresh(
  bundle: URL,
  stamps: readonly URL[],
  env: NodeJS.ProcessEnv,
  options: FreshBundleOptions = {},
): boolean {
  if (env.ANNA_CLI_NO_BUNDLE === "1") return false;
  const built = mtimeMs(bundle);
  if (built === undefined) return false;
  if (options.allowForce === true && env.ANNA_CLI_BUNDLE === "1") return true;
  // A stamp that does not exist (a published install has none) cannot make it stale.
  return stamps.every((stamp) => (mtimeMs(stamp) ?? 0) <= built);
}
