// The one report: every suite's rows in one table, as Markdown (bench/README.md keeps the latest)
// and as plain columns for the terminal.
import { formatNumber, renderTable } from "../host/format.js";
import type { ReportRow } from "./row.js";

export interface SuiteOutcome {
  suite: string;
  status: "ran" | "skipped" | "failed";
  /** Why it was skipped or how it failed (one line). */
  reason?: string;
  seconds: number;
  rows: ReportRow[];
}

const HEADER = ["suite", "figure", "unit", "ours", "baseline", "comparison", "target", "verdict"];

function cells(suite: string, row: ReportRow): string[] {
  return [
    suite,
    row.label,
    row.unit,
    formatNumber(row.ours),
    row.baseline === undefined ? "" : `${row.baseline.name} ${formatNumber(row.baseline.value)}`,
    row.comparison,
    row.target,
    row.verdict === "info" ? "" : row.verdict,
  ];
}

function allRows(outcomes: readonly SuiteOutcome[]): string[][] {
  return outcomes.flatMap((o) => o.rows.map((row) => cells(o.suite, row)));
}

export function tally(outcomes: readonly SuiteOutcome[]): { pass: number; miss: number } {
  const rows = outcomes.flatMap((o) => o.rows);
  return {
    pass: rows.filter((r) => r.verdict === "PASS").length,
    miss: rows.filter((r) => r.verdict === "MISS").length,
  };
}

function suiteLines(outcomes: readonly SuiteOutcome[]): string[] {
  return outcomes
    .filter((o) => o.status !== "ran")
    .map((o) => `${o.suite}: ${o.status}${o.reason === undefined ? "" : ` — ${o.reason}`}`);
}

export function terminalReport(outcomes: readonly SuiteOutcome[]): string {
  const { pass, miss } = tally(outcomes);
  return [
    renderTable(HEADER, allRows(outcomes)),
    "",
    ...suiteLines(outcomes),
    `${pass} targets met, ${miss} missed`,
  ].join("\n");
}

const escapeCell = (cell: string) => cell.replaceAll("|", "\\|");

export function markdownReport(outcomes: readonly SuiteOutcome[], machine: string): string {
  const { pass, miss } = tally(outcomes);
  const line = (row: readonly string[]) => `| ${row.map(escapeCell).join(" | ")} |`;
  return [
    `${machine}; ${pass} targets met, ${miss} missed.`,
    "",
    line(HEADER),
    line(HEADER.map(() => "---")),
    ...allRows(outcomes).map(line),
    ...(suiteLines(outcomes).length > 0 ? ["", ...suiteLines(outcomes).map((l) => `- ${l}`)] : []),
    "",
  ].join("\n");
}
