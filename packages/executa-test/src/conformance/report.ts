// What a conformance run reports: one result per check, each with a stable id, the spec lines it
// enforces and, when the plugin is off, a finding that says what it did and what it should do.
// Plain data, so the CLI can print it as a table, JSON or JUnit, and other code can act on it.

/**
 * `fail`: the platform breaks on this (the run fails). `warn`: the host tolerates it but the spec
 * asks otherwise (the run still passes). `skip`: nothing to exercise (e.g. no reverse calls made).
 */
export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export interface Finding {
  /** What the plugin did, quoting the frame or the exit. */
  observed: string;
  /** What a conforming plugin does instead. */
  expected: string;
}

export interface CheckResult {
  /** Stable: `handshake.initialize`, `contract.greet.missing.name`, … (what `--only` matches). */
  id: string;
  title: string;
  /** The spec lines the check enforces, e.g. `L1005, L8525`. */
  spec: string;
  status: CheckStatus;
  /** Set for `fail` and `warn`. */
  finding?: Finding;
  /** Why a check passed with a caveat or was skipped. */
  note?: string;
  durationMs: number;
}

export interface ConformanceSummary {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
}

export interface ConformanceReport {
  /** Bumped when the JSON shape changes incompatibly. */
  version: 1;
  ok: boolean;
  plugin: {
    dir: string;
    toolId: string;
    command: readonly string[];
    /** "2.0" when the plugin answered initialize, "1.1" after the fallback. */
    protocolVersion: "2.0" | "1.1" | "unknown";
    /** The launch detection's warnings (e.g. uv missing). */
    launchWarnings: readonly string[];
  };
  summary: ConformanceSummary;
  results: CheckResult[];
  durationMs: number;
}

export function summarise(results: readonly CheckResult[]): ConformanceSummary {
  const summary: ConformanceSummary = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const result of results) summary[result.status] += 1;
  return summary;
}
