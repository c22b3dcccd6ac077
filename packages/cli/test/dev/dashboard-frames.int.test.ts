// The dashboard's window frames in Chromium: moved by the title bar and resized by the corner
// within the view's min/max (the harness keeps the geometry; the app's own window.resize is
// clamped the same way), minimised to the dock and restored, closed, and single-instance views
// re-focused instead of opened twice. One browser for the file; a harness per test.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, useBrowser } from "./browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { classOf, cssOf, eventually, openDashboard, textOf } from "./dashboard-session.js";

/** Drags from the centre of `from` by (dx, dy) with the mouse, in a few steps. */
async function drag(page: Page, from: Locator, dx: number, dy: number): Promise<void> {
  const box = await from.boundingBox();
  if (box === null) throw new Error("the drag handle is not visible");
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(`anna-app dev dashboard: window frames${chromium.reason}`, () => {
  const browser = useBrowser();

  it("moves a frame by its title bar and resizes it within the view's min/max", async () => {
    const s = await openDashboard(browser());
    const wid = s.server.window.window_uuid;
    const frame = s.frame(wid);
    await eventually(() => textOf(frame.locator(".title"))).toBe("ready main v1");

    await drag(s.page, frame.locator(".title"), 150, 80);
    await eventually(async () => (await s.window(wid)).geometry).toMatchObject({ x: 150, y: 80 });
    expect(await cssOf(frame, "left")).toBe("150px");

    // Past the view's max_size (640×480), then below its min_size (320×240).
    await drag(s.page, frame.locator(".resize"), 1000, 1000);
    await eventually(async () => (await s.window(wid)).geometry).toMatchObject({ w: 640, h: 480 });
    expect(await cssOf(frame.locator("iframe"), "height")).toBe("480px");
    await eventually(() => textOf(s.app(wid).locator("#geometry"))).toBe("640x480");
    await drag(s.page, frame.locator(".resize"), -2000, -2000);
    await eventually(async () => (await s.window(wid)).geometry).toMatchObject({ w: 320, h: 240 });
    expect(await cssOf(frame, "width")).toBe("320px");

    // The app's own window.resize is clamped by the harness and applied to the frame.
    await s.app(wid).locator("#grow").click();
    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("resized 640x480");
    await eventually(() => cssOf(frame, "width")).toBe("640px");
    expect(s.errors).toEqual([]);
  });

  it("minimises a frame to the dock, restores it from its chip, shows a crash, and closes it", async () => {
    const s = await openDashboard(browser());
    const wid = s.server.window.window_uuid;
    const frame = s.frame(wid);
    await eventually(() => textOf(frame.locator(".title"))).toBe("ready main v1");

    await frame.locator("button.minimise").click();
    const chip = s.page.locator(`#dock .chip[data-wid="${wid}"]`);
    await eventually(() => chip.count()).toBe(1);
    expect(await chip.textContent()).toBe("ready main v1");
    expect(await frame.isVisible()).toBe(false);
    expect(await frame.locator("iframe").count()).toBe(0); // unmounted, state kept (L5980)
    expect((await s.window(wid)).status).toBe("minimized");

    await chip.click();
    await eventually(() => chip.count()).toBe(0);
    expect(await frame.isVisible()).toBe(true);
    await eventually(async () => (await s.window(wid)).status).toBe("active");
    // The remounted app connects again with a fresh token.
    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("ready");
    await eventually(() => classOf(frame)).toContain("focused");

    // A fatal report_error crashes the window: the frame says so and stays until closed.
    await s.app(wid).locator("#crash").click();
    await eventually(() => textOf(frame.locator(".title"))).toBe("ready main v1 (crashed)");
    expect(await classOf(frame)).toContain("crashed");
    expect((await s.window(wid)).status).toBe("crashed");

    await frame.locator("button.close").click();
    await eventually(() => frame.count()).toBe(0);
    expect((await s.window(wid)).status).toBe("crashed"); // terminal: the frame just goes
    expect(s.errors).toEqual([]);
  });

  it("re-opening a single-instance view focuses its frame; another view opens a second one, closed by ×", async () => {
    const s = await openDashboard(browser());
    const main = s.server.window.window_uuid;
    await eventually(() => textOf(s.frame(main).locator(".title"))).toBe("ready main v1");

    await s.page.locator('#views button[data-view="note"]').click();
    const note = s.page.locator('.frame[data-view="note"]');
    await eventually(() => textOf(note.locator(".title"))).toBe("ready note v1");
    await eventually(() => classOf(note)).toContain("focused");
    // Cascaded off the first frame, and the harness knows where.
    const noteWid = (await note.getAttribute("data-wid")) ?? "";
    await eventually(async () => (await s.window(noteWid)).geometry).toMatchObject({
      x: 32,
      y: 32,
    });

    await drag(s.page, note.locator(".title"), 420, 0); // beside the first frame, not over it
    await eventually(async () => (await s.window(noteWid)).geometry).toMatchObject({ x: 452 });

    await s.page.locator('#views button[data-view="main"]').click();
    await eventually(() => classOf(s.frame(main))).toContain("focused");
    expect(await classOf(note)).not.toContain("focused");
    expect(await s.page.locator(".frame").count()).toBe(2);
    // A click inside an app's document brings its frame to front too.
    await note.locator("iframe").click({ position: { x: 20, y: 20 } });
    await eventually(() => classOf(note)).toContain("focused");
    await s
      .frame(main)
      .locator("iframe")
      .click({ position: { x: 20, y: 250 } });
    await eventually(() => classOf(s.frame(main))).toContain("focused");
    const windows = await s.server.dispatcher.listWindows();
    expect(windows.map((w) => w.view).sort()).toEqual(["main", "note"]);
    const z = Object.fromEntries(windows.map((w) => [w.view, w.z_index as number]));
    expect(z.main).toBeGreaterThan(z.note ?? Infinity);
    await eventually(() => cssOf(s.frame(main), "z-index")).toBe(String(z.main));

    await screenshot(s.page, "dev-dashboard-frames");

    await note.locator("button.close").click();
    await eventually(() => note.count()).toBe(0);
    expect((await s.window(noteWid)).status).toBe("closed");
    expect(s.errors).toEqual([]);
  });
});
