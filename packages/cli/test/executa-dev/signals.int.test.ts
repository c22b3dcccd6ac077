// Ctrl-C during a one-shot invoke shuts the plugin down (it runs in its own process group, so
// the terminal's SIGINT never reaches it) and exits 130 with one line.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { processesWithEnv } from "../../../executa-host/test/process/helpers.js";
import { CLI, FIXTURES, cliEnv } from "./helpers.js";

const WAIT_MS = 15_000;

describe("executa dev and signals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s during an invoke stops the plugin and exits 128+n",
    async (signal) => {
      // The plugin's own pid means nothing outside its PID namespace (under the supervisor):
      // a variable it inherits finds it from here.
      const mark = randomUUID();
      const plugin = () => processesWithEnv("CRASHY_MARK", mark);
      const child = spawn(
        process.execPath,
        [CLI, "executa", "dev", "--dir", path.join(FIXTURES, "crashy"), "--invoke", "hang"],
        { env: cliEnv({ CRASHY_MARK: mark }), stdio: ["ignore", "pipe", "pipe"] },
      );
      onTestFinished(() => {
        if (child.exitCode === null) child.kill("SIGKILL");
      });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`plugin did not start: ${stderr}`)),
          WAIT_MS,
        );
        child.stderr.on("data", (chunk: string) => {
          stderr += chunk;
          if (/crashy started pid \d+/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      onTestFinished(() => {
        for (const { pid } of plugin()) process.kill(pid, "SIGKILL");
      });
      expect(plugin().map((p) => p.comm)).toContain("node");
      const exited = new Promise<number | null>((resolve) =>
        child.on("close", (code) => resolve(code)),
      );
      child.kill(signal);
      const code = await exited;
      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(stderr).toMatch(
        new RegExp(`error: interrupted \\(${signal}\\); the plugin was shut down`),
      );
      expect(plugin()).toEqual([]);
    },
  );
});
