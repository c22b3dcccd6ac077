// One rule for single-file bundles, shared by this package's entry and the CLI's fast paths
// (`@anna-ai/executa-sdk/fresh-bundle`; the lowest package both may import): a loader prefers
// the bundle over the compiled modules it was made from only while the bundle is newer than every
// build stamp (the `.tsbuildinfo` files `tsc -b` rewrites when it emits), so a plain `tsc -b`
// never runs stale code. Dependency-free and tiny: it loads before the code it chooses.
import { statSync } from "node:fs";

export interface FreshBundleOptions {
  /** Never use the bundle (each caller's `*_NO_BUNDLE=1`). */
  off?: boolean;
  /** Use the bundle whenever it exists, stamps or not (benchmarks that just built it). */
  force?: boolean;
}

function mtimeMs(url: URL): number | undefined {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
}

/** True when `bundle` exists and no stamp in `stamps` is newer than it. */
export function bundleIsFresh(
  bundle: URL,
  stamps: readonly URL[],
  options: FreshBundleOptions = {},
): boolean {
  if (options.off === true) return false;
  const built = mtimeMs(bundle);
  if (built === undefined) return false;
  if (options.force === true) return true;
  // A stamp that does not exist (a published install has none) cannot make it stale.
  return stamps.every((stamp) => (mtimeMs(stamp) ?? 0) <= built);
}
