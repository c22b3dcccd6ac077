// The pre-review checks that read a version's UI bundle, in the order their findings are shown.
// `checks/index.ts` puts them after the manifest's own check.
import type { PreReviewCheck } from "../pre-review.js";
import { type AssetSizeLimits, assetSizeCheck } from "./asset-size.js";
import { bundleCspCheck } from "./bundle-csp.js";
import { fileMapCheck } from "./file-map.js";
import { secretsCheck } from "./secrets.js";

/** The bundle checks with an operator's asset-size thresholds. */
export function bundleChecks(
  options: { assetSize?: Partial<AssetSizeLimits> } = {},
): PreReviewCheck[] {
  return [fileMapCheck, secretsCheck, bundleCspCheck, assetSizeCheck(options.assetSize)];
}

export const BUNDLE_CHECKS: readonly PreReviewCheck[] = Object.freeze(bundleChecks());
