// The dashboard's iframe host on its own page, in Chromium (it will be shared with the platform
// dashboard): the bridge forwards an app iframe's request with its token and answers only that
// iframe, drops what is not an app's request for its own window, answers the caller's deadline
// itself; events reach only helloed frames they concern; frames are sandboxed without
// allow-same-origin, minimise to the dock and come back with a fresh link.
import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openTestPage, useBrowser } from "./browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { eventually, textOf } from "./dashboard-session.js";
import { startIframeHost, type IframeHost } from "./iframe-host-page.js";

/** What the test reaches of the host page and the app pages (typed without the DOM library). */
interface HostGlobals {
  desk: {
    frames: {
      addFrame(win: unknown, url: string): void;
      allFrames(): unknown[];
      frameById(wid: string): { helloed: boolean } | undefined;
    };
    bridge: { relay(frames: unknown[], event: unknown): void };
  };
  postMessage(message: unknown, origin: string): void;
}
interface AppGlobals {
  received: Array<Record<string, unknown>>;
  send(message: unknown): void;
}

const request = (wid: string, fields: Record<string, unknown> = {}) => ({
  type: "anna-app/rpc",
  id: `r-${wid}-${String(fields["method"] ?? "get")}`,
  window_uuid: wid,
  token: `tok-${wid}`,
  ns: "storage",
  method: "get",
  args: {},
  ...fields,
});

async function openHost(page: Page): Promise<IframeHost> {
  const host = await startIframeHost();
  await page.goto(host.url);
  await page.waitForSelector("body[data-ready]");
  return host;
}

/** Adds a frame for window `wid` and answers its app page once that has loaded. */
async function addWindow(page: Page, wid: string, x = 0): Promise<Frame> {
  await page.evaluate(
    ([id, left]) =>
      (globalThis as unknown as HostGlobals).desk.frames.addFrame(
        {
          window_uuid: id,
          view: "main",
          title: `win ${id}`,
          geometry: { x: left, y: 0, w: 300, h: 200 },
        },
        `/app?wid=${id}`,
      ),
    [wid, x] as const,
  );
  let app: Frame | null = null;
  await eventually(async () => {
    app = page.frame({ url: new RegExp(`/app\\?wid=${wid}$`) });
    return app === null ? false : app.evaluate(() => "send" in globalThis);
  }).toBe(true);
  return app as unknown as Frame;
}

const received = (app: Frame) => app.evaluate(() => (globalThis as unknown as AppGlobals).received);
const send = (app: Frame, message: unknown) =>
  app.evaluate((m) => (globalThis as unknown as AppGlobals).send(m), message);

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(
  `dashboard iframe host (bridge.js, frames.js)${chromium.reason}`,
  () => {
    const browser = useBrowser();

    it("forwards an app's request with its token and answers only that iframe", async () => {
      const { page, errors } = await openTestPage(browser());
      const host = await openHost(page);
      const one = await addWindow(page, "w1");
      const two = await addWindow(page, "w2", 320);
      await send(one, request("w1"));
      await eventually(() => received(one)).toEqual([
        { type: "anna-app/rpc-result", id: "r-w1-get", ok: true, result: { echoed: "get" } },
      ]);
      expect(host.rpcs).toEqual([
        {
          token: "tok-w1",
          body: { id: "r-w1-get", window_uuid: "w1", ns: "storage", method: "get", args: {} },
        },
      ]);
      expect(await received(two)).toEqual([]);
      expect(errors).toEqual([]);
    });

    it("drops a request for another window, a malformed one and one not from an app iframe", async () => {
      const { page } = await openTestPage(browser());
      const host = await openHost(page);
      const one = await addWindow(page, "w1");
      await addWindow(page, "w2", 320);
      await send(one, request("w2"));
      await send(one, { ...request("w1"), token: undefined });
      await page.evaluate(
        (m) => (globalThis as unknown as HostGlobals).postMessage(m, "*"),
        request("w1"),
      );
      const dropped = page.locator('#calls [data-dropped="true"] summary');
      await eventually(() => dropped.count()).toBe(3);
      const texts = await dropped.allTextContents();
      expect(texts).toEqual(
        expect.arrayContaining([
          expect.stringContaining("names window w2, but its iframe is window w1"),
          expect.stringContaining("not an anna-app/rpc request"),
          expect.stringContaining("not from an app iframe of this page"),
        ]),
      );
      expect(host.rpcs).toEqual([]);
      expect(await received(one)).toEqual([]);
    });

    it("answers the app's deadline itself when the harness does not answer", async () => {
      const { page } = await openTestPage(browser());
      await openHost(page);
      const one = await addWindow(page, "w1");
      await send(one, request("w1", { method: "hang", timeout_ms: 50 }));
      await eventually(async () => (await received(one))[0]?.["error"]).toMatchObject({
        code: "timeout",
        message: "no answer from the harness within 50 ms",
      });
    });

    it("relays an event only to helloed frames it concerns; app-wide and sibling kinds to all", async () => {
      const { page } = await openTestPage(browser());
      await openHost(page);
      const one = await addWindow(page, "w1");
      const two = await addWindow(page, "w2", 320);
      const relay = (event: unknown) =>
        page.evaluate((e) => {
          const { desk } = globalThis as unknown as HostGlobals;
          desk.bridge.relay(desk.frames.allFrames(), e);
        }, event);
      const events = async (app: Frame) =>
        (await received(app)).filter((m) => m["type"] === "anna-app/event").map((m) => m["event"]);

      await send(one, request("w1", { ns: "window", method: "hello" }));
      await eventually(() =>
        page.evaluate(
          () => (globalThis as unknown as HostGlobals).desk.frames.frameById("w1")?.helloed,
        ),
      ).toBe(true);
      const titled = { kind: "title_changed", window_uuid: "w1", payload: { title: "t" } };
      const ping = { kind: "ping", window_uuid: null, payload: {} };
      await relay(titled);
      await relay(ping);
      await eventually(() => events(one)).toEqual([titled, ping]);
      // Not helloed yet: nothing, not even app-wide events.
      expect(await events(two)).toEqual([]);

      await send(two, request("w2", { ns: "window", method: "hello" }));
      await eventually(async () => (await received(two)).length).toBe(1);
      const opened = { kind: "open_view", window_uuid: "w1", payload: { window_uuid: "w1" } };
      await relay(titled);
      await relay(opened);
      await eventually(() => events(two)).toEqual([opened]);
    });

    it("mounts a sandboxed iframe, minimises it to the dock and restores it with a fresh link", async () => {
      const { page } = await openTestPage(browser());
      const host = await openHost(page);
      await addWindow(page, "w1");
      const frame = page.locator('.frame[data-wid="w1"]');
      // The app's origin stays opaque: scripts run, same-origin access never granted.
      const sandbox = (await frame.locator("iframe").getAttribute("sandbox"))?.split(" ");
      expect(sandbox).toContain("allow-scripts");
      expect(sandbox).not.toContain("allow-same-origin");
      expect(await textOf(frame.locator(".title"))).toBe("win w1");

      await frame.locator("button.minimise").click();
      await eventually(() => frame.locator("iframe").count()).toBe(0);
      expect(host.patches[0]).toEqual({ wid: "w1", body: { status: "minimized" } });
      const chip = page.locator('#dock .chip[data-wid="w1"]');
      expect(await textOf(chip)).toBe("win w1");

      await chip.click();
      await eventually(() => frame.locator("iframe").getAttribute("src")).toBe(
        "/app?wid=w1&fresh=1",
      );
      expect(await chip.count()).toBe(0);
      expect(host.patches.map((p) => p.body)).toEqual(
        expect.arrayContaining([{ status: "active" }, { focus: true }]),
      );
    });
  },
);
