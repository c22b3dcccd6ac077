// The example plugins in TypeScript, Python and Go pass the whole conformance suite from their
// folders, started the way the host starts them. Python and Go skip with a reason when absent.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConformance, type ConformanceReport } from "@anna-ai/executa-test";
import { needs } from "../../../tests/support/toolchains.js";
import { EXAMPLES_DIR, GO_RUN_TIMEOUT_MS, goEnv } from "./helpers.js";

const python = needs("python3");
const go = needs("go");
const RUN_TIMEOUT_MS = 90_000;

/** Nothing failed and nothing warned; the skips are named so a new one shows in the diff. */
function expectConforms(report: ConformanceReport, skipped: readonly string[]): void {
  const failed = report.results.filter((r) => r.status === "fail" || r.status === "warn");
  expect(failed).toEqual([]);
  expect(report.results.filter((r) => r.status === "skip").map((r) => r.id)).toEqual(skipped);
  expect(report.ok).toBe(true);
}

describe("ts-notes (TypeScript, protocol 2.0)", () => {
  it(
    "conforms, its reverse calls each carrying their invoke's id",
    async () => {
      const report = await runConformance({ dir: join(EXAMPLES_DIR, "ts-notes") });
      expect(report.plugin.protocolVersion).toBe("2.0");
      expectConforms(report, ["frames.large-response"]);
      expect(report.results.find((r) => r.id === "reverse.invoke-id")?.note).toMatch(
        /^\d+ reverse call\(s\), each with its invoke's id$/,
      );
      expect(report.results.filter((r) => r.id.startsWith("contract.")).length).toBeGreaterThan(10);
    },
    RUN_TIMEOUT_MS,
  );
});

describe.skipIf(python.skip)(`py-weather (Python, protocol 1.1)${python.reason}`, () => {
  it(
    "conforms on protocol 1.1, its large answers by file transport (no reverse calls to judge)",
    async () => {
      const report = await runConformance({
        dir: join(EXAMPLES_DIR, "py-weather"),
        env: { WEATHER_API_KEY: "sk_test_1234" },
        samples: { forecast: { fields: ["temp"] } },
      });
      expect(report.plugin.protocolVersion).toBe("1.1");
      expectConforms(report, ["reverse.invoke-id"]);
      expect(report.results.find((r) => r.id === "frames.large-response")?.note).toMatch(
        /by file transport/,
      );
    },
    RUN_TIMEOUT_MS,
  );
});

describe.skipIf(go.skip)(`go-hello (Go, protocol 2.0)${go.reason}`, () => {
  it(
    "conforms, started with go run",
    async () => {
      const report = await runConformance({
        dir: join(EXAMPLES_DIR, "go-hello"),
        baseEnv: goEnv(),
        timeoutMs: GO_RUN_TIMEOUT_MS,
      });
      expect(report.plugin.command.slice(0, 2)).toEqual(["go", "run"]);
      expectConforms(report, []);
    },
    GO_RUN_TIMEOUT_MS * 2,
  );
});
