// Runs an example app's own vitest suite the way the app's author runs it: vitest started in the
// app's folder with the app's config, `@anna-ai/cli/test` resolved as an installed package (here
// through the workspace's node_modules), no edits to the app's tests.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../../..");
const VITEST = path.join(REPO, "node_modules/vitest/vitest.mjs");
/** A cold vitest start on CI's two cores; the suites themselves take milliseconds. */
export const APP_SUITE_TIMEOUT_MS = 20_000;

export interface AppSuiteResult {
  code: number | null;
  stderr: string;
  total: number;
  passed: number;
  /** Full names of the tests that did not pass. */
  failed: string[];
}

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

/** `vitest run --reporter=json` in `appDir`; rejects when the run outlives the timeout. */
export function runAppSuite(appDir: string): Promise<AppSuiteResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, "run", "--reporter=json"], {
      cwd: appDir,
      env: { ...process.env, CI: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the app's vitest run took over ${APP_SUITE_TIMEOUT_MS} ms\n${stderr}`));
    }, APP_SUITE_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const start = stdout.indexOf("{");
      if (start < 0) {
        reject(new Error(`the app's vitest run printed no JSON report (exit ${code})\n${stderr}`));
        return;
      }
      const report = JSON.parse(stdout.slice(start)) as JsonReport;
      resolve({
        code,
        stderr,
        total: report.numTotalTests,
        passed: report.numPassedTests,
        failed: report.testResults
          .flatMap((file) => file.assertionResults)
          .filter((test) => test.status !== "passed")
          .map((test) => test.fullName),
      });
    });
  });
}
