// The CI smoke run's judgement (issue 17): no timed test, only each gated row's cost ratio
// against the baseline measured in the same run, compared with the ratio recorded for it
// (bench/smoke-ratios.json). A row fails when its ratio is more than `SLACK` times the recorded
// one; a row with no recorded ratio, or whose suite did not run, is reported and passes.
// The recorded ratio is the worst seen over the recording runs (a loaded and a quiet machine
// move ratios both ways: a busy box can even flatter one), so only a real regression trips it;
// and a row recorded cheaper than its baseline is judged as if at 1× (ours merely catching up
// with the baseline is not a regression). A row found worse is not yet a regression: its suite
// runs again (`CONFIRM_RUNS` more times) and the row is judged by its best ratio over the runs,
// since at smoke counts one descheduled sample can double a ratio but never halve it.
import { costRatio, type ReportRow } from "./row.js";
import type { SuiteOutcome } from "./table.js";

export const SLACK = 2;
export const CONFIRM_RUNS = 2;

export type Recorded = Record<string, number>;

export interface CheckLine {
  key: string;
  ratio: number;
  recorded: number | undefined;
  ok: boolean;
}

const gated = (row: ReportRow) => row.gate !== false && costRatio(row) !== undefined;

export function ratiosOf(outcomes: readonly SuiteOutcome[]): Recorded {
  const out: Recorded = {};
  for (const o of outcomes)
    for (const row of o.rows)
      if (gated(row)) out[`${o.suite}/${row.figure}`] = Number(costRatio(row)!.toFixed(3));
  return out;
}

export function checkRatios(ratios: Recorded, recorded: Recorded): CheckLine[] {
  return Object.entries(ratios).map(([key, ratio]) => {
    const before = recorded[key];
    return {
      key,
      ratio,
      recorded: before,
      ok: before === undefined || ratio <= SLACK * Math.max(before, 1),
    };
  });
}

/** The best (smallest) ratio per key of both: how a re-run to confirm a regression folds in. */
export function mergeBest(before: Recorded, now: Recorded): Recorded {
  const out: Recorded = { ...before };
  for (const [key, ratio] of Object.entries(now)) out[key] = Math.min(out[key] ?? Infinity, ratio);
  return out;
}

/** The worst (largest) ratio per key of both: what `--record` keeps. */
export function mergeWorst(before: Recorded, now: Recorded): Recorded {
  const out: Recorded = { ...before };
  for (const [key, ratio] of Object.entries(now)) out[key] = Math.max(out[key] ?? 0, ratio);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
