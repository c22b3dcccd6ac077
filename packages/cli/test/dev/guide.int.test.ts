// docs/app-dev.md "From zero to a working window", followed as a newcomer follows it: the guide's
// `anna-app init` with the real CLI, its `anna-app dev` as a child process (plus `--port 0` and
// `--json` to read the URL), the window in Chromium with the tool call's answer and the stored
// count, Ctrl-C, then the guide's own bundle test and `npm test`. `npm install` of the `file:`
// dependency is the symlink npm makes, into this checkout (offline).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, runCli, testEnv } from "../executa-init/helpers.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { fencedBlocks, guideCommand, readGuide } from "../guide-doc.js";
import { runBundleTests } from "../init/helpers.js";
import { openTestPage, screenshot, useBrowser } from "./browser.js";
import { eventually, textOf } from "./dashboard-session.js";
import { startDevProcess } from "./dev-process.js";

const GUIDE = readGuide("app-dev.md");
const FROM_ZERO_AT = GUIDE.indexOf("## From zero to a working window");
const FROM_ZERO = GUIDE.slice(FROM_ZERO_AT, GUIDE.indexOf("\n## ", FROM_ZERO_AT + 1));
/** The first tools.invoke starts the Python executa: longer than a UI round trip. */
const FIRST_CALL_TIMEOUT_MS = 10_000;
/** The window needs a browser, and its tool call the guide's Python executa. */
const walkthrough = needs("chromium", "python3");

const work = mkdtempSync(path.join(tmpdir(), "app-dev-guide-"));
let project = "";
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  const init = guideCommand(FROM_ZERO, "anna-app init");
  const result = await runCli(init, { cwd: work });
  expect(result.code, result.stderr).toBe(0);
  project = path.join(work, init[1] as string);
});

/**
 * Live processes whose working directory is `dir` (a plugin runs in its folder); Linux /proc.
 * bubblewrap, the supervisor the plugin may run under, starts there too and is not the plugin.
 */
function processesIn(dir: string): number[] {
  const target = realpathSync(dir);
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (/ Z /.test(stat) || stat.includes(" (bwrap) ")) return false;
        return readlinkSync(`/proc/${pid}/cwd`) === target;
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

describe("docs/app-dev.md: from zero to a working window", () => {
  const browser = useBrowser();

  it.skipIf(walkthrough.skip)(
    `anna-app dev shows the window with the tool call's answer and the stored count; Ctrl-C stops it all${walkthrough.reason}`,
    async () => {
      const [, ...devArgs] = guideCommand(FROM_ZERO, "anna-app dev");
      const dev = startDevProcess([...devArgs, "--port", "0", "--json"], project, {
        PATH: testEnv().PATH,
      });
      const banner = JSON.parse((await dev.waitFor(/^\{.*\}$/m))[0]) as {
        dashboard: string;
        window: { window_uuid: string };
        executas: Array<{ tool_id: string; type: string; dir: string; state: string }>;
      };
      const [executa] = banner.executas;
      // The banner the guide prints is the one this app gets.
      expect(FROM_ZERO).toContain(
        `${executa?.tool_id} (${executa?.type}, ${path.relative(project, executa?.dir ?? "")}) — idle`,
      );

      const { page, errors } = await openTestPage(browser());
      await page.goto(banner.dashboard);
      const app = page
        .locator(`.frame[data-wid="${banner.window.window_uuid}"]`)
        .frameLocator("iframe");
      await expect
        .poll(() => textOf(app.locator("#message")), {
          timeout: FIRST_CALL_TIMEOUT_MS,
          interval: 50,
        })
        .toBe("Hello, Ada!");
      expect(await textOf(app.locator("#visits"))).toBe("First visit — welcome!");
      expect(FROM_ZERO).toContain("**Hello, Ada!** and **First visit — welcome!**");

      // The panel: the calls in green, the executa ready, the stored count.
      for (const call of ["window.hello", "storage.get", "storage.set", "tools.invoke"]) {
        await eventually(() =>
          page.locator(`#calls details.allowed[data-call="${call}"]`).count(),
        ).toBe(1);
      }
      expect(await page.locator("#calls details.denied, #calls details.error").count()).toBe(0);
      await eventually(() => textOf(page.locator("#executas"))).toContain(`${executa?.tool_id}`);
      await eventually(() => textOf(page.locator("#executas"))).toContain("— ready");
      await eventually(() => textOf(page.locator("#state"))).toContain('"visits": 1');
      expect(FROM_ZERO).toContain('`runtime_state`, `{"visits": 1}`');
      await screenshot(page, "dev-guide-window");
      expect(errors).toEqual([]);

      const plugins = processesIn(executa?.dir ?? "");
      expect(plugins).toHaveLength(1);
      expect(await dev.stop("SIGINT")).toBe(130);
      expect(FROM_ZERO).toContain("Ctrl-C stops the harness and its executas (exit 130)");
      expect(processesIn(executa?.dir ?? "")).toEqual([]);
      expect(existsSync(`/proc/${plugins[0]}/cwd`)).toBe(false);
    },
  );

  it("the guide's bundle test passes under npm test", async () => {
    // `npm install -D <checkout>/packages/cli`: npm links the folder as node_modules/@anna-ai/cli.
    const [flag, folder] = guideCommand(FROM_ZERO, "packages/cli", "npm install");
    expect(flag).toBe("-D");
    expect(folder).toMatch(/\/anna-platform\/packages\/cli$/);
    mkdirSync(path.join(project, "node_modules/@anna-ai"), { recursive: true });
    symlinkSync(path.join(REPO, "packages/cli"), path.join(project, "node_modules/@anna-ai/cli"));

    const test = fencedBlocks(FROM_ZERO, "js").find((block) => block.startsWith("// tests/"));
    const file = test?.match(/^\/\/ (tests\/\S+\.test\.js)/)?.[1];
    if (test === undefined || file === undefined)
      throw new Error("the guide shows no tests/*.test.js");
    writeFileSync(path.join(project, file), test);

    // `npm test` is the template's `vitest run`, with this checkout's vitest linked in.
    expect(fencedBlocks(FROM_ZERO, "bash").some((block) => block.trim() === "npm test")).toBe(true);
    const scripts = (
      JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts["test"]).toBe("vitest run");
    const run = await runBundleTests(project);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`✓ ${file} (1 test)`);
    expect(run.stdout).toMatch(/Test Files +2 passed \(2\)/);
  });
});
