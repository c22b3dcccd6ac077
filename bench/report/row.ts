// One row of the whole-project report (`npm run bench`, issue 17): what every suite writes into
// its `--json` file under `report`, so the runner reads one shape and never a suite's internals.
// A suite keeps its own figures and targets; this is only how it states them.
import { formatNumber } from "../host/format.js";

/** Which way is good: a time or a cost goes down, a throughput goes up. */
export type Better = "lower" | "higher";

export type Verdict = "PASS" | "MISS" | "info" | "n/a";

export interface ReportRow {
  /** Stable id inside the suite (the smoke check keys recorded ratios on `suite/figure`). */
  figure: string;
  label: string;
  unit: string;
  /** Our median (or the figure the target is about). */
  ours: number;
  /** The named baseline measured in the same run, when the row has one. */
  baseline?: { name: string; value: number };
  better: Better;
  /** Ours against the baseline the way the target reads: "1.23× floor", "+12.0 ms vs node". */
  comparison: string;
  /** The target in words, "" for an information row. */
  target: string;
  verdict: Verdict;
  /**
   * Whether the CI smoke run may judge this row's ratio (default: when it has a baseline). Off
   * where the baseline is too small for one quick round to give a stable ratio (a 1 ms event).
   */
  gate?: boolean;
  /** Why a target is missed or what the figure means, when the suite knows. */
  note?: string;
}

/** What a suite's JSON file holds for the report, beside its own fields. */
export interface SuiteReport {
  suite: string;
  report: ReportRow[];
}

/**
 * How much more ours costs than its baseline, as one number where bigger is worse: ours/baseline
 * for a time, baseline/ours for a throughput. Undefined without a usable baseline.
 */
export function costRatio(row: ReportRow): number | undefined {
  const base = row.baseline?.value;
  if (base === undefined || !Number.isFinite(base) || !Number.isFinite(row.ours)) return undefined;
  if (base <= 0 || row.ours <= 0) return undefined;
  return row.better === "lower" ? row.ours / base : base / row.ours;
}

/** `1.23× floor` for a ratio, `+12.0 ms vs node` for a difference. */
export function describeAgainst(
  ours: number,
  baseline: { name: string; value: number } | undefined,
  unit: string,
  compare: "ratio" | "difference",
): string {
  if (baseline === undefined || !Number.isFinite(baseline.value) || !Number.isFinite(ours))
    return "";
  if (compare === "ratio") return `${(ours / baseline.value).toFixed(2)}× ${baseline.name}`;
  const diff = ours - baseline.value;
  return `${diff >= 0 ? "+" : "−"}${formatNumber(Math.abs(diff))} ${unit} vs ${baseline.name}`;
}
