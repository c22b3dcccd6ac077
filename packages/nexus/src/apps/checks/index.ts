// The pre-review checks submit-review runs, in order: one list, so a new check is one more entry.
import type { PreReviewCheck } from "../pre-review.js";
import { manifestCheck } from "./manifest-check.js";

export const PRE_REVIEW_CHECKS: readonly PreReviewCheck[] = [manifestCheck];
