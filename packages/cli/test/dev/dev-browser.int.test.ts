// One real browser on the scaffolded app (`anna-app init`'s minimal template): Chromium opens the
// dashboard, the app loads in its sandboxed iframe, calls its Python executa and storage through
// the page's bridge, and `window.set_title` changes the frame's title bar. A screenshot of the
// dashboard is kept under test-artifacts/.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openTestPage, screenshot, useBrowser } from "./browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { eventually, textOf } from "./dashboard-session.js";
import { scaffoldTestApp, startHarness } from "./helpers.js";

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

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(`anna-app dev in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();

  it("runs the app in its sandboxed iframe: a tool call, storage, and set_title on the frame", async () => {
    const app = await scaffoldTestApp();
    writeFileSync(path.join(app.dir, "bundle/app.js"), APP_JS);
    const server = await startHarness(app);
    const { page, errors } = await openTestPage(browser());
    await page.goto(server.url);
    const frame = page.locator(`.frame[data-wid="${server.window.window_uuid}"]`);
    expect(await frame.locator("iframe").getAttribute("sandbox")).not.toContain(
      "allow-same-origin",
    );
    // The first tools.invoke spawns the Python executa: give it longer than a UI round trip.
    await expect
      .poll(() => textOf(frame.locator(".title")), { timeout: 15_000, interval: 50 })
      .toMatch(/^(OK|FAIL) /);
    expect(await textOf(frame.locator(".title"))).toBe("OK Hello, Chromium! 41");
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
    // The window's runtime_state and the executa's state reached the panel.
    await eventually(() => textOf(page.locator("#state"))).toContain('"visits": 41');
    await eventually(() => textOf(page.locator("#executas"))).toContain("— ready");
    await screenshot(page, "dev-dashboard");
    expect(errors).toEqual([]);
  });
});
