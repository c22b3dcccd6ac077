// The desk's window frames in Debian's Chromium (playwright-core) against a real Nexus on SQLite
// with the app runtime and chat (the model a fake OpenAI-compatible server): a window is dragged
// by its title bar and moved by Alt+arrow keys, resized by its corner handle and Alt+Shift+arrows
// and stops at the view's max and min (learned from the app's `window.hello`), minimised and
// restored, each change the server's; a desk per conversation, restored after a reload; deleting
// a conversation after a confirmation closes its window; at 390×844 a window opens as a
// full-screen sheet on the view's mobile entry, with Back to the tray. Screenshots go to
// test-artifacts/app-desk-*.png.
import { dispatcherAppViews } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { createChat, nullLogger, systemClock, turnAssembler } from "@anna-ai/nexus";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";
import { fakeModelGateway } from "./fake-model.js";
import { publisher } from "./publish-app.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;
/** One journey of many steps, each waiting up to WAIT_MS. */
const TIMEOUT = { timeout: 90_000 };
const RUNTIME = "/api/v1/anna-apps/runtime";
const SLUG = "desk-notes";
const NAME = "Desk Notes";

/** One single-instance view with size limits, and a mobile entry for the mobile container. */
const MANIFEST = {
  schema: 2,
  ui: {
    form_factors: ["desktop", "mobile"],
    bundle: { format: "static-spa", entry: "index.html" },
    views: [
      {
        name: "main",
        title: NAME,
        default: true,
        single_instance: true,
        mobile_entry: "mobile.html",
        min_size: { w: 300, h: 200 },
        default_size: { w: 420, h: 300 },
        max_size: { w: 640, h: 480 },
      },
    ],
  },
};

/**
 * Says which entry it is and sends `window.hello` the way the SDK does (the raw postMessage
 * envelope), showing the view's max size from the answer: the host learns the limits from it.
 */
const APP_JS = `const q = new URLSearchParams(location.search);
document.getElementById("entry").textContent = "entry: " + location.pathname.split("/").pop();
addEventListener("message", (e) => {
  const m = e.data;
  if (!m || m.type !== "anna-app/rpc-result" || m.id !== "hello-1") return;
  document.getElementById("hello").textContent = m.ok
    ? "hello answered, max " + JSON.stringify(m.result.view_meta.max_size)
    : "hello failed: " + m.error.message;
});
parent.postMessage({ type: "anna-app/rpc", id: "hello-1", window_uuid: q.get("wid"), token: q.get("t"),
  ns: "window", method: "hello", args: {}, timeout_ms: 10000 }, "*");
`;
const page = (title: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p id="entry"></p><p id="hello">hello: pending</p><script src="app.js"></script></body></html>
`;
const BUNDLE = {
  "index.html": page("Desk Notes, desktop"),
  "mobile.html": page("Desk Notes, mobile"),
  "app.js": APP_JS,
};

interface ServerWindow {
  window_uuid: string;
  status: string;
  z_index: number;
  conversation_session_uuid: string | null;
  geometry: { x: number; y: number; w: number; h: number };
}

describe.skipIf(chromium.skip)(`the desk's windows in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeProvider;
  let people = 0;

  beforeAll(async () => {
    fake = await startFakeProvider();
    const gateway = fakeModelGateway(fake);
    nexus = await startTestNexus({
      dashboard: builtDashboard(),
      runtime: true,
      chat: (db, { runtime }) =>
        createChat({
          db,
          gateway,
          clock: systemClock,
          logger: nullLogger,
          pollMs: 50,
          assemble: turnAssembler({
            db,
            executas: undefined,
            ...(runtime ? { appViews: dispatcherAppViews(runtime.dispatcher) } : {}),
            logger: nullLogger,
          }),
          streamLimits: { keepaliveMs: 1000 },
        }),
    });
    const apps = await publisher(nexus, "dev@example.com", "admin@example.com");
    await apps.app({
      slug: SLUG,
      name: NAME,
      tagline: "Notes in a window",
      category: "productivity",
      description: "Notes that open beside the chat.",
      manifest: MANIFEST,
      publish: true,
      bundle: BUNDLE,
    });
  });
  afterAll(async () => {
    await nexus?.close();
    await fake?.close();
  });

  /** A new person with the app installed, on the chat. */
  async function person(p: Page): Promise<void> {
    const email = `desk${++people}@example.com`;
    await p.goto(`${nexus.url}/signup`);
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign up" }).click();
    await p.getByText(email).waitFor({ timeout: WAIT_MS });
    await p.goto(`${nexus.url}/store/${SLUG}`);
    await p.getByRole("button", { name: `Install ${NAME}` }).click();
    await p.getByText("Installed v1.0.0.").waitFor({ timeout: WAIT_MS });
  }

  async function serverWindows(p: Page): Promise<ServerWindow[]> {
    const cookie = (await p.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${nexus.url}${RUNTIME}/windows`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { windows: ServerWindow[] }).windows;
  }

  async function appId(p: Page): Promise<string> {
    const cookie = (await p.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${nexus.url}/api/v1/me/apps`, { headers: { cookie } });
    const mine = (await res.json()) as { id: number; slug: string }[];
    return String(mine.find((a) => a.slug === SLUG)?.id);
  }

  async function openFromMyApps(p: Page): Promise<Locator> {
    await p.getByRole("link", { name: "My apps" }).click();
    await p.getByRole("button", { name: `Open ${NAME}` }).click();
    await p.waitForURL(/\/chat$/, { timeout: WAIT_MS });
    const frame = p.locator(".desk .frame");
    await frame.waitFor({ timeout: WAIT_MS });
    return frame;
  }

  /** Sends a message whose turn opens the app's window (its model calls open_app_view). */
  async function sendOpeningTurn(p: Page, id: string, text: string): Promise<void> {
    fake.enqueue(
      { toolCalls: [{ name: "open_app_view", args: { app_id: id } }] },
      { text: `Opened for: ${text}` },
    );
    await p.getByRole("textbox", { name: "Message" }).fill(text);
    await p.keyboard.press("Enter");
    await p.getByText(`Opened for: ${text}`).waitFor({ timeout: WAIT_MS });
  }

  const geometryOf = async (p: Page, wid: string) =>
    (await serverWindows(p)).find((w) => w.window_uuid === wid)?.geometry;

  /** Drags from the middle of `handle` by (dx, dy) in steps; `during` runs before release. */
  async function drag(
    p: Page,
    handle: Locator,
    dx: number,
    dy: number,
    during?: () => Promise<void>,
  ): Promise<void> {
    await handle.scrollIntoViewIfNeeded();
    const box = await handle.boundingBox();
    if (!box) throw new Error("the drag handle is not on screen");
    const x = box.x + Math.min(box.width / 2, 40);
    const y = box.y + box.height / 2;
    await p.mouse.move(x, y);
    await p.mouse.down();
    await p.mouse.move(x + dx, y + dy, { steps: 8 });
    await during?.();
    await p.mouse.up();
  }

  it(
    "moves, resizes within the view's limits, minimises and restores a window, by pointer and keyboard",
    TIMEOUT,
    async () => {
      const { page: p, errors } = await openTestPage(browser());
      await person(p);
      await p.goto(`${nexus.url}/chat`);
      const frame = await openFromMyApps(p);
      const app = p.frameLocator(".desk .frame iframe");
      await expect
        .poll(() => app.locator("#hello").textContent(), { timeout: WAIT_MS })
        .toBe('hello answered, max {"w":640,"h":480}');
      expect(await app.locator("#entry").textContent()).toBe("entry: index.html");
      const wid = (await frame.getAttribute("data-wid")) ?? "";
      expect(await geometryOf(p, wid)).toMatchObject({ x: 0, y: 0, w: 420, h: 300 });

      // Dragging the title bar moves it, on the server too.
      const bar = frame.locator(".bar");
      await drag(p, bar.locator(".title"), 120, 80);
      await expect
        .poll(() => geometryOf(p, wid), { timeout: WAIT_MS })
        .toMatchObject({ x: 120, y: 80 });

      // From the keyboard: the focused bar moves with Alt+arrows, 16 px a press, one PATCH.
      await bar.focus();
      await p.keyboard.press("Alt+ArrowRight");
      await p.keyboard.press("Alt+ArrowRight");
      await p.keyboard.press("Alt+ArrowDown");
      expect(await frame.getAttribute("style")).toMatch(/left: 152px; top: 96px;/);
      await expect
        .poll(() => geometryOf(p, wid), { timeout: WAIT_MS })
        .toMatchObject({ x: 152, y: 96 });
      // Arrows alone do nothing: they belong to whatever has the focus.
      await p.keyboard.press("ArrowRight");
      expect(await frame.getAttribute("style")).toMatch(/left: 152px;/);

      // Resizing stops at the view's max while the pointer goes on, and the server keeps it.
      const handle = frame.locator(".resize");
      await drag(p, handle, 500, 500, async () => {
        expect(await frame.getAttribute("style")).toMatch(/width: 640px;/);
        expect(await frame.locator("iframe").getAttribute("style")).toMatch(/height: 480px;/);
      });
      await expect
        .poll(() => geometryOf(p, wid), { timeout: WAIT_MS })
        .toMatchObject({ w: 640, h: 480 });
      await screenshot(p, "app-desk-max");
      // …and at its min the other way.
      await drag(p, handle, -900, -900);
      await expect
        .poll(() => geometryOf(p, wid), { timeout: WAIT_MS })
        .toMatchObject({ w: 300, h: 200 });
      await bar.focus();
      await p.keyboard.press("Alt+Shift+ArrowRight");
      await expect
        .poll(() => geometryOf(p, wid), { timeout: WAIT_MS })
        .toMatchObject({ w: 316, h: 200 });
      expect(await bar.getAttribute("aria-label")).toBe(
        `${NAME} window: Alt+arrow keys move it, Alt+Shift+arrow keys resize it`,
      );

      // Minimise to the dock and restore, the server's status each time.
      await frame.getByRole("button", { name: "Minimise to the dock" }).click();
      const chip = p
        .getByLabel("Minimised windows")
        .getByRole("button", { name: `Restore ${NAME}` });
      await chip.waitFor({ timeout: WAIT_MS });
      expect(await frame.isVisible()).toBe(false);
      await expect
        .poll(async () => (await serverWindows(p))[0]?.status, { timeout: WAIT_MS })
        .toBe("minimized");
      await chip.click();
      await frame.locator("iframe").waitFor({ timeout: WAIT_MS });
      await expect
        .poll(async () => (await serverWindows(p))[0]?.status, { timeout: WAIT_MS })
        .toBe("active");

      // A reload finds it where it was left.
      await p.reload();
      await frame.waitFor({ timeout: WAIT_MS });
      expect(await frame.getAttribute("style")).toMatch(/left: 152px; top: 96px; width: 316px;/);
      expect(errors).toEqual([]);
    },
  );

  it(
    "keeps a desk per conversation: each shows its own window, also after a reload",
    TIMEOUT,
    async () => {
      const { page: p, errors } = await openTestPage(browser());
      await person(p);
      const id = await appId(p);
      await p.goto(`${nexus.url}/chat`);
      await sendOpeningTurn(p, id, `#${SLUG} first conversation`);
      await p.waitForURL(/\/chat\/[^/]+$/, { timeout: WAIT_MS });
      const first = p.url().split("/").pop() ?? "";
      const frames = p.locator(".desk .frame");
      await frames.waitFor({ timeout: WAIT_MS });
      const firstWid = (await frames.getAttribute("data-wid")) ?? "";

      // A new conversation has an empty desk; the first one's window stays open on the server.
      await p.getByRole("button", { name: "New conversation" }).click();
      await p.waitForURL((u) => !u.pathname.endsWith(first) && /\/chat\/.+/.test(u.pathname), {
        timeout: WAIT_MS,
      });
      const second = p.url().split("/").pop() ?? "";
      await p.locator(".desk.empty").waitFor({ state: "attached", timeout: WAIT_MS });
      expect(await frames.count()).toBe(0);
      expect(await serverWindows(p)).toMatchObject([
        { window_uuid: firstWid, status: "active", conversation_session_uuid: first },
      ]);

      // Its own turn opens its own window of the single-instance view.
      await sendOpeningTurn(p, id, `#${SLUG} second conversation`);
      await expect.poll(() => frames.count(), { timeout: WAIT_MS }).toBe(1);
      const secondWid = (await frames.getAttribute("data-wid")) ?? "";
      expect(secondWid).not.toBe(firstWid);
      await screenshot(p, "app-desk-second-conversation");

      const conversations = p.getByRole("navigation", { name: "Conversations" });
      const wids = async () => frames.evaluateAll((els) => els.map((e) => e.dataset["wid"]));
      await conversations.getByRole("link", { name: /first conversation/ }).click();
      await expect.poll(wids, { timeout: WAIT_MS }).toEqual([firstWid]);
      await p.reload();
      await expect.poll(wids, { timeout: WAIT_MS }).toEqual([firstWid]);
      await conversations.getByRole("link", { name: /second conversation/ }).click();
      await expect.poll(wids, { timeout: WAIT_MS }).toEqual([secondWid]);
      expect(p.url()).toContain(second);
      expect(errors).toEqual([]);
    },
  );

  it("deletes a conversation after a confirmation, closing its window", TIMEOUT, async () => {
    const { page: p, errors } = await openTestPage(browser());
    await person(p);
    const id = await appId(p);
    await p.goto(`${nexus.url}/chat`);
    await sendOpeningTurn(p, id, `#${SLUG} to be deleted`);
    await p.waitForURL(/\/chat\/[^/]+$/, { timeout: WAIT_MS });
    const conversationId = p.url().split("/").pop() ?? "";
    await p.locator(".desk .frame").waitFor({ timeout: WAIT_MS });
    const list = p.getByRole("navigation", { name: "Conversations" });
    await list.getByRole("link", { name: /to be deleted/ }).waitFor();

    // The first press asks; Keep it (or Escape) keeps everything.
    await p.getByRole("button", { name: "Delete conversation" }).click();
    const confirm = p.getByRole("group", { name: "Confirm deleting the conversation" });
    await confirm.getByText(/with its messages, attached files and app windows/).waitFor();
    await screenshot(p, "app-desk-delete-confirm");
    await confirm.getByRole("button", { name: "Keep it" }).click();
    await confirm.waitFor({ state: "detached" });
    await p.getByRole("button", { name: "Delete conversation" }).click();
    await p.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    expect(await serverWindows(p)).toHaveLength(1);

    await p.getByRole("button", { name: "Delete conversation" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await p.waitForURL(/\/chat$/, { timeout: WAIT_MS });
    await list.getByText("No conversations yet.").waitFor({ timeout: WAIT_MS });
    await expect.poll(() => serverWindows(p), { timeout: WAIT_MS }).toEqual([]);
    await p.locator(".desk.empty").waitFor({ state: "attached", timeout: WAIT_MS });
    const cookie = (await p.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const gone = await fetch(`${nexus.url}/api/v1/chat/conversations/${conversationId}`, {
      headers: { cookie },
    });
    expect(gone.status).toBe(404);
    expect(errors).toEqual([]);
  });

  it(
    "opens a window as a full-screen sheet on the mobile entry at 390×844, Back to the tray",
    TIMEOUT,
    async () => {
      const { page: p, errors } = await openTestPage(browser());
      await p.setViewportSize({ width: 390, height: 844 });
      await person(p);
      await p.goto(`${nexus.url}/chat`);
      // The chat takes the whole width (less the page's margins).
      const composer = p.getByRole("textbox", { name: "Message" });
      await composer.waitFor({ timeout: WAIT_MS });
      expect((await p.locator(".conversation").boundingBox())?.width).toBeGreaterThan(340);

      const sheet = await openFromMyApps(p);
      const app = p.frameLocator(".desk .frame iframe");
      await expect
        .poll(() => app.locator("#entry").textContent(), { timeout: WAIT_MS })
        .toBe("entry: mobile.html");
      await expect
        .poll(() => app.locator("#hello").textContent(), { timeout: WAIT_MS })
        .toMatch(/^hello answered/);
      expect(await sheet.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      expect(await sheet.locator(".resize").isVisible()).toBe(false);
      await screenshot(p, "app-desk-mobile-sheet");

      // A sheet is not dragged: the server's geometry stays as it was.
      const wid = (await sheet.getAttribute("data-wid")) ?? "";
      const before = await geometryOf(p, wid);
      await drag(p, sheet.locator(".title"), 60, 120);
      expect(await sheet.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      expect(await geometryOf(p, wid)).toEqual(before);

      // Back leaves it in the tray under the chat; its chip brings the sheet back.
      const back = sheet.getByRole("button", { name: "Back to the chat" });
      expect((await back.boundingBox())?.height).toBeGreaterThanOrEqual(44);
      await back.click();
      const chip = p
        .getByLabel("Open app windows")
        .getByRole("button", { name: `Restore ${NAME}` });
      await chip.waitFor({ timeout: WAIT_MS });
      expect(await sheet.isVisible()).toBe(false);
      await composer.waitFor();
      await screenshot(p, "app-desk-mobile-tray");
      await chip.click();
      await sheet.locator("iframe").waitFor({ timeout: WAIT_MS });
      expect(await sheet.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });

      await sheet.getByRole("button", { name: "Close" }).click();
      await sheet.waitFor({ state: "detached", timeout: WAIT_MS });
      expect(await serverWindows(p)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );
});
