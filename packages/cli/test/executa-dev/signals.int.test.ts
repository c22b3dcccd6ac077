// Ctrl-C during a one-shot invoke shuts the plugin down (it runs in its own process group, so
// the terminal's SIGINT never reaches it) and exits 130 with one line.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI, FIXTURES, cliEnv } from "./helpers.js";

const WAIT_MS = 15_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("executa dev and signals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s during an invoke stops the plugin and exits 128+n",
    async (signal) => {
      const child = spawn(
        process.execPath,
        [CLI, "executa", "dev", "--dir", path.join(FIXTURES, "crashy"), "--invoke", "hang"],
        { env: cliEnv(), stdio: ["ignore", "pipe", "pipe"] },
      );
      onTestFinished(() => {
        if (child.exitCode === null) child.kill("SIGKILL");
      });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      const pluginPid = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`plugin did not start: ${stderr}`)),
          WAIT_MS,
        );
        child.stderr.on("data", (chunk: string) => {
          stderr += chunk;
          const match = /crashy started pid (\d+)/.exec(stderr);
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        });
      });
      onTestFinished(() => {
        if (alive(pluginPid)) process.kill(pluginPid, "SIGKILL");
      });
      const exited = new Promise<number | null>((resolve) =>
        child.on("close", (code) => resolve(code)),
      );
      child.kill(signal);
      const code = await exited;
      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(stderr).toMatch(
        new RegExp(`error: interrupted \\(${signal}\\); the plugin was shut down`),
      );
      expect(alive(pluginPid)).toBe(false);
    },
  );
});
