// The REPL on a real terminal: util-linux `script` gives the CLI a pseudo-terminal, so Ctrl-C is
// a keystroke the REPL reads (not a signal), as it is for a developer. The exit codes are the
// ones docs/executa-dev.md promises: 130 for Ctrl-C on an empty prompt, 0 for Ctrl-D.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cliEnv, example, REPO } from "./helpers.js";

const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;
const NOTES = example("ts-notes");

/** Starts the REPL under a pty, sends `keys` once the prompt is up, and resolves the exit code. */
function replUnderPty(keys: string): Promise<{ code: number | null; output: string }> {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} executa dev --dir ${JSON.stringify(NOTES)}`;
  // -e: exit with the child's code; -q: no "Script started" lines; the typescript goes nowhere.
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: cliEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let sent = false;
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (!sent && output.includes("Type 'help' for commands")) {
      sent = true;
      // The prompt is drawn right after the banner; give readline a moment to take the terminal.
      setTimeout(() => child.stdin.write(keys), 300);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!HAS_SCRIPT)("executa dev REPL on a terminal (util-linux script)", () => {
  it("Ctrl-C on an empty prompt leaves with exit code 130, as the guide says", async () => {
    const guide = readFileSync(path.join(REPO, "docs/executa-dev.md"), "utf8");
    expect(guide).toMatch(/Ctrl-C clears a typed line; on an empty prompt it .*exit code 130/);
    const { code, output } = await replUnderPty("\u0003");
    expect(code, output).toBe(130);
  });

  it("Ctrl-C on a typed line only clears it; Ctrl-D then leaves with exit code 0", async () => {
    const { code, output } = await replUnderPty("invoke ec\u0003\u0004");
    expect(code, output).toBe(0);
  });
});
