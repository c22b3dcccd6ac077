/** What a per-type launcher decided: the argv, type-specific env and findings to report. */
export interface LaunchPlan {
  command: readonly string[];
  warnings: string[];
  env?: Record<string, string>;
}
