// The conformance report as a terminal table: one row per check (status, id, what it checks or
// what it noted, spec lines, time), each failure and warning followed by what the plugin did and
// what it should do, then the totals. Colour only through the Style (off without a TTY, NO_COLOR).
import type { CheckResult, ConformanceReport } from "@anna-ai/executa-test";
import type { Style } from "../cli/style.js";

const MARK: Readonly<Record<CheckResult["status"], string>> = {
  pass: "✓",
  fail: "✗",
  warn: "!",
  skip: "-",
};

function paint(result: CheckResult, style: Style): (text: string) => string {
  switch (result.status) {
    case "pass":
      return style.green;
    case "fail":
      return style.red;
    case "warn":
      return style.yellow;
    case "skip":
      return style.dim;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function formatReport(report: ConformanceReport, style: Style): string {
  const idWidth = Math.max(5, ...report.results.map((r) => r.id.length));
  const lines: string[] = [
    `${style.bold("executa conformance")} ${report.plugin.toolId} (${report.plugin.dir}, protocol ${report.plugin.protocolVersion})`,
    ...report.plugin.launchWarnings.map((w) => style.yellow(`  launch: ${w}`)),
    "",
  ];
  for (const result of report.results) {
    const color = paint(result, style);
    const text = result.note === undefined ? result.title : `${result.title} (${result.note})`;
    lines.push(
      `${color(MARK[result.status])} ${color(result.id.padEnd(idWidth))}  ${text}  ${style.dim(`[${result.spec}] ${result.durationMs} ms`)}`,
    );
    if (result.finding !== undefined) {
      lines.push(`    ${style.bold("did:")}    ${result.finding.observed}`);
      lines.push(`    ${style.bold("should:")} ${result.finding.expected}`);
    }
  }
  const { summary } = report;
  const totals = [
    style.green(`${summary.pass} passed`),
    (summary.fail > 0 ? style.red : (s: string) => s)(`${summary.fail} failed`),
    (summary.warn > 0 ? style.yellow : (s: string) => s)(plural(summary.warn, "warning")),
    `${summary.skip} skipped`,
  ];
  lines.push(
    "",
    `${plural(report.results.length, "check")}: ${totals.join(", ")} in ${(report.durationMs / 1000).toFixed(1)} s`,
    report.ok
      ? style.green("conforms")
      : style.red("does not conform: fix the failed checks above"),
  );
  return `${lines.join("\n")}\n`;
}
