// The built CLI's gates on the app, as its CI runs them: `validate --strict` (every Host API call
// the bundle makes is granted), and the committed dev-session recording passes `fixture verify`
// and replays against today's manifest with no call denied.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../packages/cli/test/executa-dev/helpers.js";

const APP = path.resolve(fileURLToPath(import.meta.url), "../..");
const RECORDING = "fixtures/recordings/studio-session.jsonl";

function jsonLine(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim()) as Record<string, unknown>;
}

describe("picture-book-studio under anna-app's checks", () => {
  it("passes validate --strict with no warning", async () => {
    const run = await runCli(["validate", "--strict", "--json"], { cwd: APP });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLine(run.stdout)).toMatchObject({ ok: true, errors: 0, warnings: 0, strict: true });
  });

  it("has a recorded dev session that fixture verify accepts and replay still allows", async () => {
    const verify = await runCli(["fixture", "verify", "--json", RECORDING], { cwd: APP });
    expect(verify.code, verify.stdout).toBe(0);
    expect(jsonLine(verify.stdout)).toMatchObject({ ok: true, style: "kind", errors: 0 });

    const replay = await runCli(["fixture", "replay", "--json", RECORDING], { cwd: APP });
    expect(replay.code, replay.stdout).toBe(0);
    const report = jsonLine(replay.stdout) as {
      denied: number;
      changed: number;
      calls: { ns: string; method: string }[];
    };
    expect(report).toMatchObject({ denied: 0, changed: 0 });
    expect(report.calls.map((c) => `${c.ns}.${c.method}`)).toEqual(
      expect.arrayContaining([
        "llm.stream",
        "llm.complete",
        "agent.session.create",
        "agent.session.run",
        "image.generate",
        "tools.invoke",
      ]),
    );
  });
});
