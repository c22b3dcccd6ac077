// Every recording published under examples/ passes `anna-app fixture verify`, with no error and
// no warning, including ones added after this test was written: the files are listed from git
// (committed or new, not ignored), not named here. Mock-answer files beside them are told apart
// and skipped, never failed line by line.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO, runCli } from "../../packages/cli/test/executa-init/helpers.js";

/** `.jsonl` files under examples/ a clone has (ignored dev-session recordings left out). */
function exampleJsonlFiles(): string[] {
  const listed = spawnSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "--", "examples/**/*.jsonl"],
    { cwd: REPO, encoding: "utf8" },
  );
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split("\n").filter((file) => file !== "");
}

interface VerifyLine {
  file: string;
  ok: boolean;
  kind?: string;
  skipped?: string;
  errors?: number;
  warnings?: number;
  issues?: unknown[];
}

describe("published example recordings", () => {
  it("all pass fixture verify with no error or warning", async () => {
    const files = exampleJsonlFiles();
    const result = await runCli(["fixture", "verify", "--json", ...files], { cwd: REPO });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as VerifyLine);
    expect(lines.map((line) => line.file).sort()).toEqual([...files].sort());

    const recordings = lines.filter((line) => line.skipped === undefined);
    // focus-flow's happy path and picture-book-studio's session at least.
    expect(recordings.length).toBeGreaterThanOrEqual(2);
    for (const line of recordings) {
      expect(line, line.file).toMatchObject({ ok: true, errors: 0, warnings: 0, issues: [] });
    }
    for (const line of lines.filter((l) => l.skipped !== undefined)) {
      expect(line, line.file).toMatchObject({ ok: true, kind: "mock_answers" });
    }
  });
});
