// The one way browser tests get a browser: Debian's Chromium (`apt-get install chromium`,
// `.ci/run`) driven by playwright-core — never `playwright install`. A test suite skips through
// `needs("chromium")` (tests/support/toolchains.ts) and uses `openBrowser()`; the browser closes
// when the test ends, and screenshots go under test-artifacts/ (git-ignored, kept by CI).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import { CHROMIUM, HAVE_CHROMIUM } from "../../../../tests/support/toolchains.js";

export const ARTIFACTS = fileURLToPath(new URL("../../../../test-artifacts/", import.meta.url));

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/** A headless Chromium closed when the current test finishes. */
export async function openBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  onTestFinished(() => browser.close());
  return browser;
}

/**
 * One headless Chromium for a whole test file (call at the top of a `describe`): launched before
 * its first test, closed after its last. Returns the getter; tests open their pages with
 * `openTestPage(browser())`.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    // Without Chromium its tests skip; the suite's other tests must still run.
    if (HAVE_CHROMIUM) browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  return () => {
    if (browser === undefined)
      throw new Error(
        "useBrowser(): Chromium is not launched yet (call it in a describe, use it in a test)",
      );
    return browser;
  };
}

/** A page of a fresh context (its own cookies and storage) at 1280×800. */
export async function openPage(browser?: Browser): Promise<Page> {
  const owner = browser ?? (await openBrowser());
  const context = await owner.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/**
 * A page of a fresh context closed when the current test finishes. Uncaught errors of the page
 * are collected in `errors` (a test can expect it empty).
 */
export async function openTestPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

/** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
