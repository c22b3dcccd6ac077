// The smoke app's own vitest suite, run the way the app's author runs it: vitest started in the
// app's folder, `@anna-ai/cli/test` resolved as an installed package (here through the
// workspace's node_modules), no edits to the app's tests.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../../..");
const APP = path.join(REPO, "examples/apps/mount-bundle-smoke");
const VITEST = path.join(REPO, "node_modules/vitest/vitest.mjs");
/** A cold vitest start on CI's two cores; the suite itself takes milliseconds. */
const SUITE_TIMEOUT_MS = 20_000;

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

function runAppSuite(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, "run", "--reporter=json"], {
      cwd: APP,
      env: { ...process.env, CI: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the app's vitest run took over ${SUITE_TIMEOUT_MS} ms\n${stderr}`));
    }, SUITE_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("examples/apps/mount-bundle-smoke", () => {
  it(
    "passes its unchanged vitest suite against @anna-ai/cli/test",
    async () => {
      const run = await runAppSuite();
      const start = run.stdout.indexOf("{");
      expect(start, run.stderr).toBeGreaterThanOrEqual(0);
      const report = JSON.parse(run.stdout.slice(start)) as JsonReport;
      const failed = report.testResults
        .flatMap((file) => file.assertionResults)
        .filter((test) => test.status !== "passed")
        .map((test) => test.fullName);
      expect(failed, run.stderr).toEqual([]);
      expect(report.numTotalTests).toBe(4);
      expect(report.numPassedTests).toBe(4);
      expect(run.code).toBe(0);
    },
    SUITE_TIMEOUT_MS + 5_000,
  );
});
