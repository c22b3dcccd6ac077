// `npm start` is a newcomer's first command: the root package.json's start script runs
// `anna-app dev` on this app. This runs that command (after its build step, which `npm test`
// has done) on a free port, reads the dashboard URL from the banner, loads the dashboard and the
// window, and stops it with SIGINT as Ctrl-C does (exit 130).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { REPO } from "../../../../packages/cli/test/test-kit/app-suite.js";
import { MANIFEST } from "./app.js";

/** The harness boots in well under a second; this bounds a hang, it measures nothing. */
const BOOT_TIMEOUT_MS = 15_000;

/** The start script's command after `node scripts/build.mjs &&`, split on spaces. */
function startCommand(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [build, run] = (pkg.scripts["start"] ?? "").split(" && ");
  expect(build).toBe("node scripts/build.mjs");
  return (run ?? "").split(" ");
}

describe("npm start", () => {
  it("runs anna-app dev on focus-flow, prints the dashboard URL and stops on Ctrl-C", async () => {
    const [node, ...args] = startCommand();
    expect(node).toBe("node");
    expect(path.resolve(REPO, args[args.indexOf("--manifest") + 1] ?? "")).toBe(MANIFEST);

    const child = spawn(process.execPath, [...args, "--port", "0", "--no-record", "--json"], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const banner = await new Promise<{ dashboard: string; window: { url: string } }>(
        (resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`no banner within ${BOOT_TIMEOUT_MS} ms`)),
            BOOT_TIMEOUT_MS,
          );
          createInterface({ input: child.stdout }).once("line", (line) => {
            clearTimeout(timer);
            resolve(JSON.parse(line) as { dashboard: string; window: { url: string } });
          });
        },
      );
      expect(banner.dashboard).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const dashboard = await fetch(banner.dashboard);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("Focus Flow");
      const window = await fetch(banner.window.url, { headers: { "Sec-Fetch-Dest": "iframe" } });
      expect(window.status).toBe(200);
      expect(await window.text()).toContain("<title>Focus Flow</title>");
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(130);
  });
});
