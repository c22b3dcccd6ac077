// The smoke app's own vitest suite, run unchanged from the app's folder (app-suite.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_SUITE_TIMEOUT_MS, REPO, runAppSuite } from "./app-suite.js";

const APP = path.join(REPO, "examples/apps/mount-bundle-smoke");

describe("examples/apps/mount-bundle-smoke", () => {
  it(
    "passes its unchanged vitest suite against @anna-ai/cli/test",
    async () => {
      const run = await runAppSuite(APP);
      expect(run.failed, run.stderr).toEqual([]);
      expect(run.total).toBe(4);
      expect(run.passed).toBe(4);
      expect(run.code).toBe(0);
    },
    APP_SUITE_TIMEOUT_MS + 5_000,
  );
});
