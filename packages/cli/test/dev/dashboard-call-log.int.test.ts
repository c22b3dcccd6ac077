// The panel's call log in Chromium: heartbeats hidden unless asked for, a filter over the row
// summaries, a clear button, the if_match warning under its call, the banner's warnings at the
// top, and nothing wider than the panel's column however long a payload is.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenshot, useBrowser } from "./browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { eventually, openDashboard } from "./dashboard-session.js";
import { rpc, tokenOf } from "./helpers.js";

/** A published manifest's host capability: a warning in the panel, not a launch error. */
function addRefusedPermission(dir: string): void {
  const file = path.join(dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { permissions: string[] };
  manifest.permissions.push("llm.image");
  writeFileSync(file, JSON.stringify(manifest));
}

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(`anna-app dev dashboard: the call log${chromium.reason}`, () => {
  const browser = useBrowser();

  it("hides heartbeats, filters, clears, warns, and stays inside its column", async () => {
    const s = await openDashboard(browser(), {}, addRefusedPermission);
    const { page, server } = s;
    await eventually(() => page.locator("#warnings li").count()).toBe(1);
    expect(await page.locator("#warnings li").textContent()).toContain('"llm.image"');

    const token = tokenOf(server);
    await rpc(server, token, "window", "heartbeat", {});
    await rpc(server, token, "storage", "set", { key: "wide", value: "w".repeat(3000) });
    await rpc(server, token, "storage", "set", { key: "n", value: 1, if_match: 'W/"1-x"' });
    const rows = page.locator("#calls > .row");
    const visible = page.locator("#calls > .row:not([hidden])");
    const heartbeat = page.locator('#calls > .row[data-call="window.heartbeat"]');
    await eventually(() => heartbeat.count()).toBe(1);
    await eventually(() => page.locator("#calls > .row.warned").count()).toBe(1);
    expect(await heartbeat.isHidden()).toBe(true);
    expect(await page.locator("#calls > .row.warned .warning").textContent()).toMatch(
      /^⚠ if_match is ignored/,
    );

    // Nothing in the panel is wider than the panel: no sideways scroll.
    const overflow = await page.locator("#panel").evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page
      .locator('#calls > .row[data-call="storage.set"]', { hasText: '"key":"wide"' })
      .first()
      .locator("summary")
      .click();
    expect(
      await page.locator("#panel").evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, "dashboard-call-log");

    await page.check("#calls-heartbeats");
    expect(await heartbeat.isVisible()).toBe(true);
    const total = await rows.count();
    await page.fill("#calls-filter", "if_match");
    await eventually(async () => (await visible.allTextContents()).length).toBeGreaterThan(0);
    for (const text of await visible.allTextContents()) expect(text).toContain("if_match");
    expect(await visible.count()).toBeLessThan(total);
    await page.fill("#calls-filter", "");
    await eventually(() => visible.count()).toBe(total);

    await page.click("#calls-clear");
    await eventually(() => rows.count()).toBe(0);
    // New calls still arrive after a clear.
    await rpc(server, token, "storage", "get", { key: "n" });
    await eventually(() => page.locator('#calls > .row[data-call="storage.get"]').count()).toBe(1);
    expect(await page.locator('#calls > .row[data-call="storage.set"]').count()).toBe(0);
    expect(s.errors).toEqual([]);
  });
});
