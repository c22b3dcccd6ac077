// Picture Book Studio's own vitest suite (tests/*.spec.js, mountBundle from @anna-ai/cli/test),
// run unchanged from the app's folder as its author runs it (app-suite.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  APP_SUITE_TIMEOUT_MS,
  REPO,
  runAppSuite,
} from "../../../../packages/cli/test/test-kit/app-suite.js";

const APP = path.join(REPO, "examples/apps/picture-book-studio");

describe("examples/apps/picture-book-studio bundle tests", () => {
  it(
    "pass unchanged against @anna-ai/cli/test",
    async () => {
      const run = await runAppSuite(APP);
      expect(run.failed, run.stderr).toEqual([]);
      expect(run.total).toBe(10);
      expect(run.passed).toBe(10);
      expect(run.code).toBe(0);
    },
    APP_SUITE_TIMEOUT_MS + 5_000,
  );
});
