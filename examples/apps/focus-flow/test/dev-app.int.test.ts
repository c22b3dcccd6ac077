// `npm run dev:app` is an app author's first command: the root package.json's script builds what
// changed and runs `anna-app dev` on this app (`npm start` is the whole platform,
// tests/e2e/npm-start.int.test.ts). This runs it through npm itself (after the build
// `npm test` has done, so the build step must find nothing to do) on a free port, reads the
// dashboard URL from the banner, loads the dashboard and the window, then sends SIGINT to npm
// alone, as an IDE's stop button does: npm must pass it on, the harness exits 130, and no process
// started under npm is left running.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { REPO } from "../../../../packages/cli/test/test-kit/app-suite.js";
import { descendants, running } from "../../../../tests/support/child-process.js";

/** The harness boots in well under a second; these bound a hang, they measure nothing. */
const BOOT_TIMEOUT_MS = 20_000;
const EXIT_TIMEOUT_MS = 10_000;

describe.runIf(process.platform === "linux")("npm run dev:app", () => {
  it("runs anna-app dev on focus-flow without rebuilding, and stops on SIGINT sent to npm", async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // `exec`: npm signals the shell it runs the script in, and a shell does not pass it on.
    expect(pkg.scripts["dev:app"]).toBe("exec node scripts/start.mjs --app");

    const child = spawn("npm", ["run", "dev:app", "--", "--port", "0", "--no-record", "--json"], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let started: number[] = [];
    try {
      const banner = await new Promise<{ dashboard: string; window: { url: string } }>(
        (resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`no banner within ${BOOT_TIMEOUT_MS} ms; stderr: ${stderr}`)),
            BOOT_TIMEOUT_MS,
          );
          createInterface({ input: child.stdout }).on("line", (line) => {
            if (!line.startsWith("{")) return; // npm's own "> anna-platform@… start" lines
            clearTimeout(timer);
            resolve(JSON.parse(line) as { dashboard: string; window: { url: string } });
          });
        },
      );
      expect(stderr).toContain("build: up to date");
      expect(banner.dashboard).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const dashboard = await fetch(banner.dashboard);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("Focus Flow");
      const window = await fetch(banner.window.url, { headers: { "Sec-Fetch-Dest": "iframe" } });
      expect(window.status).toBe(200);
      expect(await window.text()).toContain("<title>Focus Flow</title>");
      started = await descendants(child.pid ?? 0);
      expect(started.length).toBeGreaterThan(0);
    } finally {
      child.kill("SIGINT");
    }
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`npm still running ${EXIT_TIMEOUT_MS} ms after SIGINT`)),
          EXIT_TIMEOUT_MS,
        ).unref(),
      ),
    ]).finally(() => child.kill("SIGKILL"));
    expect(code).toBe(130);
    expect(started.filter(running)).toEqual([]);
  });
});
