// A misspelt ANNA_EXECUTA_SUPERVISOR is a configuration error: one line naming the variable, the
// value and the accepted ones, exit 2 (as a bad flag), never a stack trace or a plugin started.
import { describe, expect, it } from "vitest";
import { example, runCli } from "./helpers.js";

describe("ANNA_EXECUTA_SUPERVISOR", () => {
  it("exits 2 with one line when the value is not a mode", async () => {
    const result = await runCli(["executa", "dev", "--dir", example("ts-notes"), "--describe"], {
      env: { ANNA_EXECUTA_SUPERVISOR: "bwarp" },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      'error: ANNA_EXECUTA_SUPERVISOR is "bwarp"; expected one of auto, bwrap, none',
    ]);
  });
});
