// The JUnit rendering CI reads: counts on the suites, one testcase per check in its group, the
// finding in <failure>, warnings in <system-out>, skips with their reason, and XML escaping.

import { describe, expect, it } from "vitest";
import {
  conformanceJUnit,
  summarise,
  type CheckResult,
  type ConformanceReport,
} from "@anna-ai/executa-test";

const RESULTS: CheckResult[] = [
  {
    id: "handshake.initialize",
    title: "initialize",
    spec: "L1129",
    status: "pass",
    durationMs: 12,
  },
  {
    id: "errors.unknown-tool",
    title: "unknown tool <-32601>",
    spec: "L1005",
    status: "fail",
    finding: { observed: 'answered "success": true & more', expected: "answer -32601" },
    durationMs: 1500,
  },
  {
    id: "frames.non-json-stdout",
    title: "clean stdout",
    spec: "L829",
    status: "warn",
    finding: { observed: "banner \u0007 on stdout", expected: "log to stderr" },
    durationMs: 0,
  },
  {
    id: "reverse.invoke-id",
    title: "invoke ids",
    spec: "L1044",
    status: "skip",
    note: "no reverse calls",
    durationMs: 0,
  },
];

const REPORT: ConformanceReport = {
  version: 1,
  ok: false,
  plugin: {
    dir: "/p",
    toolId: "my-tool",
    command: ["node", "x.js"],
    protocolVersion: "2.0",
    launchWarnings: [],
  },
  summary: summarise(RESULTS),
  results: RESULTS,
  durationMs: 2345,
};

describe("conformanceJUnit", () => {
  const xml = conformanceJUnit(REPORT);

  it("counts tests, failures and skips on both suite elements", () => {
    expect(xml).toContain(
      '<testsuites name="executa conformance" tests="4" failures="1" skipped="1" time="2.345">',
    );
    expect(xml).toContain(
      '<testsuite name="my-tool" tests="4" failures="1" errors="0" skipped="1" time="2.345">',
    );
  });

  it("writes one testcase per check, classed by its group, with the finding escaped", () => {
    expect(xml).toContain(
      '<testcase classname="my-tool.handshake" name="handshake.initialize: initialize" time="0.012"/>',
    );
    expect(xml).toContain(
      '<testcase classname="my-tool.errors" name="errors.unknown-tool: unknown tool &lt;-32601&gt;" time="1.500">\n      <failure message="answered &quot;success&quot;: true &amp; more" type="conformance">observed: answered &quot;success&quot;: true &amp; more\nexpected: answer -32601\nspec: L1005</failure>',
    );
    expect(xml).toContain("<system-out>warning\nobserved: banner \uFFFD on stdout");
    expect(xml).toContain('<skipped message="no reverse calls"/>');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
  });
});
