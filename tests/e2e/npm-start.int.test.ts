// `npm start` is a newcomer's first command and it must give them the whole platform. This runs
// it through npm itself (after the build `npm test` has done, so the build step finds nothing to
// do) on a free port and a temp data folder: the banner names the URL and the first admin's
// password, the App Store lists the example apps over HTTP, the admin signs in with the printed
// password (which the JSON log never holds), the examples' executas are in the Hub with their
// binaries, the dashboard is served; SIGINT sent to npm alone stops it with 130 and nothing left
// running. A second start on the same data creates no admin and sends no write to the API.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { openBrowser, openPage, screenshot } from "../../packages/cli/test/dev/browser.js";
import {
  descendants,
  running,
  spawnWatched,
  type WatchedProcess,
} from "../support/child-process.js";
import { needs } from "../support/toolchains.js";

const REPO = path.resolve(import.meta.dirname, "../..");
/** Both bound a hang; the first start hashes two scrypt passwords and publishes two apps. */
const BOOT_TIMEOUT_MS = 120_000;
const SLOW = { timeout: 300_000 };
const EXAMPLES = ["focus-flow", "picture-book-studio"];
const chromium = needs("chromium");
const WAIT_MS = 30_000;

function npmStart(dataDir: string): WatchedProcess {
  return spawnWatched("npm", ["start", "--", "--port", "0", "--data", dataDir], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: "1", ANNA_LLM_PROVIDER: "" },
    timeoutMs: BOOT_TIMEOUT_MS,
  });
}

/** SIGINT to npm alone, as an IDE's stop button sends it: 130, and no process left behind. */
async function stopWithSigint(p: WatchedProcess): Promise<void> {
  const started = await descendants(p.pid ?? 0);
  expect(started.length).toBeGreaterThan(0);
  p.signal("SIGINT");
  expect(await p.exited()).toBe(130);
  expect(started.filter(running)).toEqual([]);
}

/** The newcomer's first minute in the browser: sign in as the printed admin, see the examples. */
async function signInAndSeeTheStore(url: string, password: string): Promise<void> {
  const page = await openPage(await openBrowser());
  await page.goto(`${url}/signin`);
  await page.getByLabel("Email").fill("admin@anna.localhost");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("admin@anna.localhost").waitFor({ timeout: WAIT_MS });
  const list = page.getByRole("list", { name: "Apps" });
  await list.getByRole("link", { name: "Focus Flow" }).waitFor({ timeout: WAIT_MS });
  await list.getByRole("link", { name: "Picture Book Studio" }).waitFor({ timeout: WAIT_MS });
  // docs/images/dashboard.png is this screenshot.
  await screenshot(page, "npm-start-store");
}

/** The methods of the requests the JSON log recorded (one line per API request). */
function requestMethods(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{") && l.includes('"msg":"request"'))
    .map((l) => (JSON.parse(l) as { method: string }).method);
}

describe.runIf(process.platform === "linux")("npm start", () => {
  it(
    "starts Nexus with the dashboard, the example apps in the store and the first admin, idempotently",
    SLOW,
    async () => {
      const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      };
      // `exec`: npm signals the shell it runs the script in, and a shell does not pass it on.
      expect(pkg.scripts["start"]).toBe("exec node scripts/start.mjs");
      const data = await mkdtemp(path.join(tmpdir(), "npm-start-"));
      onTestFinished(() => rm(data, { recursive: true, force: true }));

      const first = npmStart(data);
      await first.waitFor(/^ {2}stop +Ctrl-C$/m);
      expect(first.stderr()).toContain("build: up to date");
      const url = first.stdout().match(/^ {2}open +(http:\/\/127\.0\.0\.1:\d+)\/$/m)?.[1];
      const password = first.stdout().match(/password (\S+)/)?.[1];
      expect(url, first.stdout()).toBeDefined();
      expect(password, first.stdout()).toBeDefined();
      expect(first.stdout()).toContain("admin@anna.localhost");
      expect(first.stdout()).toContain("offline model — no real model configured");
      expect(first.stdout()).toContain(`data       ${data}`);
      for (const slug of EXAMPLES) expect(first.stdout()).toMatch(`${slug} 0.1.0 published`);
      expect(first.stdout()).not.toContain("mount-bundle-smoke");
      expect(first.stderr()).not.toContain(password!);
      // The publishing went through the HTTP API, as `anna-app` does against any server.
      expect(requestMethods(first.stderr())).toContain("POST");

      const store = (await (await fetch(`${url}/api/v1/store/apps`)).json()) as {
        items: { slug: string; handle: string; latest_version: string }[];
      };
      expect(store.items.map((a) => a.slug).sort()).toEqual(EXAMPLES);
      expect(store.items.every((a) => a.handle === "examples")).toBe(true);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

      const signin = await fetch(`${url}/api/v1/auth/signin`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url! },
        body: JSON.stringify({ email: "admin@anna.localhost", password }),
      });
      expect(signin.status, await signin.clone().text()).toBe(200);
      expect(await signin.json()).toMatchObject({ user: { is_admin: true } });
      const cookie = /anna_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")![0];
      if (!chromium.skip) await signInAndSeeTheStore(url!, password!);

      // Installing an example brings its executa, whose binaries are in the Hub.
      const install = await fetch(`${url}/api/v1/store/apps/focus-flow/install`, {
        method: "POST",
        headers: { cookie, origin: url! },
      });
      expect(install.status, await install.clone().text()).toBeLessThan(300);
      const executas = JSON.stringify(
        await (await fetch(`${url}/api/v1/me/executas`, { headers: { cookie } })).json(),
      );
      const toolId = /tool-examples-focus-session-[a-z0-9]+/.exec(executas)?.[0];
      expect(toolId, executas).toBeDefined();
      expect(first.stderr()).toMatch(
        new RegExp(`"executa binaries finalized","tool_id":"${toolId}".*"linux-x86_64"`),
      );
      await stopWithSigint(first);

      const second = npmStart(data);
      await second.waitFor(/^ {2}stop +Ctrl-C$/m);
      for (const slug of EXAMPLES) {
        expect(second.stdout()).toContain(`${slug} 0.1.0 already in the App Store`);
      }
      expect(second.stdout()).not.toContain("password");
      expect(requestMethods(second.stderr()).filter((m) => m !== "GET")).toEqual([]);
      await stopWithSigint(second);
    },
  );
});
