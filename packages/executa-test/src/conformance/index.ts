// The conformance suite: protocol checks and generated contract checks against any plugin.
export { CHECKS, CHECK_IDS, CONTRACT_CHECK_PREFIX, selected } from "./check-catalog.js";
export type { CheckDefinition } from "./check-catalog.js";
export { contractCheckId } from "./checks/contract.js";
export { conformanceJUnit } from "./junit.js";
export { MAX_RECORDED_REVERSE_CALLS } from "./kit-session.js";
export type { ReverseCall } from "./kit-session.js";
export { summarise } from "./report.js";
export type {
  CheckResult,
  CheckStatus,
  ConformanceReport,
  ConformanceSummary,
  Finding,
} from "./report.js";
export { ConformanceSelectorError, runConformance } from "./run-conformance.js";
export type { ConformanceOptions } from "./run-conformance.js";
