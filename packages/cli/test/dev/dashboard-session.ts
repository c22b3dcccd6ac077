// A dashboard session for the browser tests: the fixture app under a harness on port 0, the
// dashboard open in a fresh page of the file's shared Chromium, and locators for its frames.
import type { Browser, FrameLocator, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { DevServer, DevServerOptions } from "../../src/dev/dev-server.js";
import { openTestPage } from "./browser.js";
import { copyFixtureApp, startHarness } from "./helpers.js";

/** The fixture app the dashboard tests drive (`fixtures/frames-app`). */
export const FRAMES_APP = "frames-app";

export interface DashboardSession {
  server: DevServer;
  page: Page;
  /** Uncaught errors of the dashboard page. */
  errors: string[];
  dir: string;
  /** The frame of a window (`.frame[data-wid]`). */
  frame(wid: string): Locator;
  /** The app's document inside that frame's iframe. */
  app(wid: string): FrameLocator;
  /** The harness's record of a window, as the windows API shows it. */
  window(wid: string): Promise<Record<string, unknown>>;
}

/** `prepare` edits the copied app (its manifest, a recording) before the harness starts. */
export async function openDashboard(
  browser: Browser,
  options: Partial<DevServerOptions> = {},
  prepare?: (dir: string) => void,
): Promise<DashboardSession> {
  const { dir } = copyFixtureApp(FRAMES_APP);
  prepare?.(dir);
  const server = await startHarness({ dir }, options);
  const { page, errors } = await openTestPage(browser);
  await page.goto(server.url, { waitUntil: "domcontentloaded" });
  const frame = (wid: string) => page.locator(`.frame[data-wid="${wid}"]`);
  return {
    server,
    page,
    errors,
    dir,
    frame,
    app: (wid) => frame(wid).frameLocator("iframe"),
    window: async (wid) => (await server.dispatcher.getWindow(wid)) ?? {},
  };
}

/** How long the UI may take to show something (a round trip to the harness, an app load): a ceiling
 * for a loaded 2-core CI box, not an expectation — a passing poll returns as soon as it holds. */
export const UI_TIMEOUT_MS = 15_000;

/** `expect.poll` with the UI's patience: `await eventually(() => read()).toBe(…)`. */
export function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: UI_TIMEOUT_MS, interval: 50 });
}

/** The page's `getComputedStyle` (the tests are typed without the DOM library). */
interface StyleWindow {
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string };
}

/** A computed style property of the element (e.g. `left`, `z-index`). */
export function cssOf(locator: Locator, property: string): Promise<string> {
  return locator.evaluate(
    (el, name) =>
      (globalThis as unknown as StyleWindow).getComputedStyle(el).getPropertyValue(name),
    property,
  );
}

// Both answer at once when nothing matches (null, ""): Playwright's own calls wait up to 30 s
// for the element, which inside `eventually` turned a missing row into a test timeout instead
// of the poll's failure naming the expected text.
export const textOf = async (locator: Locator): Promise<string | null> =>
  (await locator.count()) === 0 ? null : locator.textContent();
export const classOf = async (locator: Locator): Promise<string> =>
  (await locator.count()) === 0 ? "" : ((await locator.getAttribute("class")) ?? "");
