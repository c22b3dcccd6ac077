// Accessibility checks run inside a dashboard page (issue 14's bar: labelled controls, visible
// focus, AA contrast). Each returns what fails, with enough to find it: an element's tag, text
// and the figures, so a test can expect an empty list and print the rest.
import type { Page } from "playwright-core";
import { focusedInPage, lowContrastInPage, unlabelledInPage } from "./a11y-in-page.js";

/** Visible controls with no accessible name (label, aria-label/-labelledby, text, title, alt). */
/** Visible controls with no accessible name (label, aria-label/-labelledby, text, title, alt). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(unlabelledInPage) as Promise<string[]>;
}

/**
 * Text whose colour against its background is under WCAG AA: 4.5:1, or 3:1 for large text
 * (24 px, or 18.66 px bold). Disabled controls are exempt (WCAG 1.4.3). The background is the
 * first opaque one up the tree (white at the root).
 */
export function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(lowContrastInPage) as Promise<string[]>;
}

interface Focused {
  key: string;
  shown: boolean;
  what: string;
}

/**
 * Tabs through the page (at most `stops` times) and lists the focused elements that show no
 * focus indicator: no outline and no box-shadow.
 */
export async function focusWithoutIndicator(page: Page, stops = 40): Promise<string[]> {
  await page.evaluate(
    "document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0)",
  );
  const failures: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press("Tab");
    const found = (await page.evaluate(focusedInPage)) as Focused | null;
    if (found === null) break;
    if (seen.has(found.key)) break; // back at the start: every stop visited
    seen.add(found.key);
    if (!found.shown) failures.push(found.what);
  }
  return failures;
}
