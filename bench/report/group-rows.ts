// Report rows for the suites whose pieces print `group / name` rows against a baseline of the
// same group (bench:nexus, bench:agent): every non-baseline row becomes one report row, judged
// when the suite names a target for it and information otherwise.
import type { Row } from "../nexus/measure.js";
import { describeAgainst, type Better, type ReportRow } from "./row.js";

export interface GroupRow extends Row {
  p50Us?: number;
  cpuUsPerOp?: number;
}

/** What a target judges: the row's figure in the unit its target is written in. */
export interface Measured {
  ours: number;
  baseline: number;
  unit: string;
  better: Better;
  compare: "ratio" | "difference";
}

export interface GroupTarget<R extends GroupRow> {
  /** Matches the row's group: exact, or every group the pattern matches. */
  group: string | RegExp;
  name: string;
  target: string;
  /** The figure the target is about; default the wall time per op (p50 when sampled) in ms. */
  measure?: (row: R, base: R) => Measured;
  pass: (m: Measured) => boolean;
}

export const wallMs = <R extends GroupRow>(row: R, base: R): Measured => ({
  ours: (row.p50Us ?? row.usPerOp) / 1000,
  baseline: (base.p50Us ?? base.usPerOp) / 1000,
  unit: "ms",
  better: "lower",
  compare: "ratio",
});

/** `tokens/mint/keyring.mint` → `tokens.mint.keyring-mint`: stable, and readable in a diff. */
export function figureId(piece: string, group: string, name: string): string {
  const slug = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9×]+/g, "-")
      .replace(/^-|-$/g, "");
  return [piece, group, name].map(slug).join(".");
}

export function groupRowsReport<R extends GroupRow>(
  rows: readonly (R & { piece: string })[],
  targets: readonly GroupTarget<R>[],
): ReportRow[] {
  const out: ReportRow[] = [];
  for (const row of rows) {
    if (row.baseline === undefined) continue;
    const base = rows.find(
      (b) => b.piece === row.piece && b.group === row.group && b.name === row.baseline,
    );
    if (base === undefined) continue;
    const goal = targets.find(
      (t) =>
        t.name === row.name &&
        (typeof t.group === "string" ? t.group === row.group : t.group.test(row.group)),
    );
    const m = (goal?.measure ?? wallMs)(row, base);
    const against = { name: row.baseline, value: m.baseline };
    out.push({
      figure: figureId(row.piece, row.group, row.name),
      label: `${row.group}: ${row.name}`,
      unit: m.unit,
      ours: m.ours,
      baseline: against,
      better: m.better,
      comparison: describeAgainst(m.ours, against, m.unit, m.compare),
      target: goal?.target ?? "",
      // One quick round's p99 is whichever stall the machine had: not a ratio to gate on.
      ...(/p99/.test(row.group) ? { gate: false } : {}),
      verdict:
        goal === undefined
          ? "info"
          : !Number.isFinite(m.ours)
            ? "n/a"
            : goal.pass(m)
              ? "PASS"
              : "MISS",
    });
  }
  return out;
}
