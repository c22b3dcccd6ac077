// `anna-app dev` as a process: the --json banner, Ctrl-C, and launch errors with exit 2.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaffoldTestApp, SLUG } from "./helpers.js";

const CLI = fileURLToPath(new URL("../../bin/anna-app.js", import.meta.url));
const CLI_TIMEOUT_MS = 10_000;

function runCli(
  args: string[],
  cwd: string,
  onLine?: (line: string, kill: (signal: NodeJS.Signals) => void) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`anna-app ${args.join(" ")} did not finish: ${stdout}${stderr}`));
    }, CLI_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line !== undefined) onLine?.(line, (s) => child.kill(s));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("anna-app dev (command)", () => {
  it("prints the banner as one JSON line and exits 130 on Ctrl-C", async () => {
    const app = await scaffoldTestApp();
    let banner: Record<string, unknown> | undefined;
    const out = await runCli(
      ["dev", "--port", "0", "--json", "--no-record", "--no-watch"],
      app.dir,
      (line, kill) => {
        if (banner !== undefined) return;
        banner = JSON.parse(line) as Record<string, unknown>;
        kill("SIGINT");
      },
    );
    expect(out.code).toBe(130);
    expect(banner).toMatchObject({
      dashboard: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      app: { slug: SLUG },
      views: ["main"],
      window: {
        url: expect.stringMatching(new RegExp(`/anna-apps/${SLUG}/dev/index.html\\?wid=.+&t=.+`)),
      },
      executas: [{ tool_id: app.toolId, type: "python", state: "idle" }],
      storage: expect.stringContaining("legacy"),
      llm: "mock (synthetic)",
      recording: null,
    });
  });

  it("exits 2 with a clear message for --storage aps", async () => {
    const app = await scaffoldTestApp();
    const out = await runCli(["dev", "--port", "0", "--storage", "aps"], app.dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("--storage aps needs a Nexus server");
  });
});
