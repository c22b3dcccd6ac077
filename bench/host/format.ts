// Number and table formatting for the report.
import type { Summary } from "./stats.js";

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "–";
  const magnitude = Math.abs(value);
  if (magnitude >= 10_000) return `${(value / 1000).toFixed(1)}k`;
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

export function formatSummary(summary: Summary | undefined): string {
  if (summary === undefined || !Number.isFinite(summary.median)) return "–";
  return `${formatNumber(summary.median)} (${formatNumber(summary.min)}–${formatNumber(summary.max)})`;
}

/** Left-aligned columns separated by two spaces, with a rule under the header. */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join(
    "\n",
  );
}
