// The pre-review checks submit-review runs, in order: one list, so a new check is one more entry.
// The manifest first (what the validator refuses), then the bundle's (file map, CSP, secrets,
// sizes) on the candidate version's finalized bundle.
import type { PreReviewCheck } from "../pre-review.js";
import { BUNDLE_CHECKS } from "./bundle-checks.js";
import { manifestCheck } from "./manifest-check.js";

export const PRE_REVIEW_CHECKS: readonly PreReviewCheck[] = [manifestCheck, ...BUNDLE_CHECKS];
