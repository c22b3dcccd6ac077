// The report as JUnit XML for CI: one <testsuite> per plugin, one <testcase> per check (classname
// is the check's group), failures with the finding, warnings as <system-out> of a passing case.

import type { CheckResult, ConformanceReport } from "./report.js";

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD");
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function findingText(result: CheckResult): string {
  if (result.finding === undefined) return "";
  return `observed: ${result.finding.observed}\nexpected: ${result.finding.expected}\nspec: ${result.spec}`;
}

function testcase(result: CheckResult, suite: string): string {
  const group = result.id.split(".")[0] ?? result.id;
  const open = `    <testcase classname="${escapeXml(`${suite}.${group}`)}" name="${escapeXml(`${result.id}: ${result.title}`)}" time="${seconds(result.durationMs)}"`;
  switch (result.status) {
    case "pass":
      return `${open}/>`;
    case "skip":
      return `${open}>\n      <skipped message="${escapeXml(result.note ?? "")}"/>\n    </testcase>`;
    case "warn":
      return `${open}>\n      <system-out>${escapeXml(`warning\n${findingText(result)}`)}</system-out>\n    </testcase>`;
    case "fail":
      return `${open}>\n      <failure message="${escapeXml(result.finding?.observed ?? "failed")}" type="conformance">${escapeXml(findingText(result))}</failure>\n    </testcase>`;
  }
}

export function conformanceJUnit(report: ConformanceReport): string {
  const suite = report.plugin.toolId;
  const { summary } = report;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="executa conformance" tests="${report.results.length}" failures="${summary.fail}" skipped="${summary.skip}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${report.results.length}" failures="${summary.fail}" errors="0" skipped="${summary.skip}" time="${seconds(report.durationMs)}">`,
    `    <properties>\n      <property name="dir" value="${escapeXml(report.plugin.dir)}"/>\n      <property name="protocolVersion" value="${report.plugin.protocolVersion}"/>\n    </properties>`,
    ...report.results.map((result) => testcase(result, suite)),
    "  </testsuite>",
    "</testsuites>",
  ];
  return `${lines.join("\n")}\n`;
}
