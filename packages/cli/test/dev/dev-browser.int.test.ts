// One real browser: Debian's Chromium opens the dashboard, the scaffolded app loads in its
// sandboxed iframe, calls its Python executa and storage through the page's bridge, and
// `window.set_title` changes the frame's title bar. The page reports its frame titles (`?report`);
// a screenshot of the dashboard is kept under test-artifacts/.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaffoldTestApp, startHarness } from "./helpers.js";

const CHROMIUM = process.env["ANNA_CHROMIUM"] ?? "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const REPORT_TIMEOUT_MS = 15_000;
const SCREENSHOT_TIMEOUT_MS = 15_000;

// The app: a tool call, a storage round trip, then the outcome as the window title.
const APP_JS = `import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
const anna = await AnnaAppRuntime.connect();
try {
  const handle = Object.keys(window.__ANNA_TOOL_IDS__)[0];
  const answer = await anna.tools.invoke({ tool_id: window.__ANNA_TOOL_IDS__[handle], method: "hello", args: { name: "Chromium" } });
  await anna.storage.set({ key: "visits", value: 41 });
  const { value } = await anna.storage.get("visits");
  await anna.window.set_title("OK " + answer.message + " " + value);
} catch (error) {
  await anna.window.set_title("FAIL " + (error.code || "") + " " + error.message);
}
`;

function chromiumArgs(profile: string, extra: string[], url: string): string[] {
  return [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--no-first-run",
    `--user-data-dir=${profile}`,
    ...extra,
    url,
  ];
}

/** Kill Chromium's whole process group and wait for the browser process. */
async function stop(child: ChildProcess): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await exited;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe.skipIf(!existsSync(CHROMIUM))("anna-app dev in Chromium", () => {
  it("runs the app in its sandboxed iframe: a tool call, storage, and set_title on the frame", async () => {
    const app = await scaffoldTestApp();
    writeFileSync(path.join(app.dir, "bundle/app.js"), APP_JS);
    const server = await startHarness(app);
    mkdirSync(ARTIFACTS, { recursive: true });
    const dir = mkdtempSync(path.join(ARTIFACTS, "dev-browser-"));
    const titled = new Promise<string>((resolve) => {
      server.onReport((report) => {
        const titles = Object.values((report as { titles?: Record<string, string> }).titles ?? {});
        const done = titles.find((t) => t.startsWith("OK ") || t.startsWith("FAIL "));
        if (done !== undefined) resolve(done);
      });
    });
    const browser = spawn(
      CHROMIUM,
      chromiumArgs(
        path.join(dir, "profile"),
        ["--remote-debugging-port=0"],
        `${server.url}?report`,
      ),
      { stdio: "ignore", detached: true },
    );
    try {
      const title = await within(titled, REPORT_TIMEOUT_MS, "no frame title report");
      expect(title).toBe("OK Hello, Chromium! 41");
      const calls = server.panel.calls.map((c) => `${c.ns}.${c.method}:${c.outcome}`);
      expect(calls).toEqual(
        expect.arrayContaining([
          "window.hello:allowed",
          "tools.invoke:allowed",
          "storage.set:allowed",
          "storage.get:allowed",
          "window.set_title:allowed",
        ]),
      );
    } finally {
      await stop(browser);
    }

    // A picture of the dashboard for humans (test-artifacts/ is git-ignored).
    const shot = path.join(ARTIFACTS, "dev-dashboard.png");
    const camera = spawn(
      CHROMIUM,
      chromiumArgs(
        path.join(dir, "profile-shot"),
        ["--screenshot=" + shot, "--window-size=1280,800", "--hide-scrollbars"],
        server.url,
      ),
      { stdio: "ignore", detached: true },
    );
    try {
      await within(
        new Promise<void>((resolve) => camera.once("exit", () => resolve())),
        SCREENSHOT_TIMEOUT_MS,
        "no screenshot",
      );
      expect(statSync(shot).size).toBeGreaterThan(0);
    } finally {
      await stop(camera);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
