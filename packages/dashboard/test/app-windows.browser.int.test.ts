// App windows beside the chat, in Debian's Chromium (playwright-core) against a real Nexus on
// SQLite with the app runtime: apps with a UI bundle published through the developer API and
// installed from the store; Open in My apps puts the app's window on the chat page's desk, its
// bundle (served from the bundle route with its CSP) rendering in a sandboxed iframe that cannot
// read the dashboard or call its API with the person's cookie; the window is the server's, so a
// reload restores it; a single-instance view opens once; a click brings a window to front;
// minimise docks it and its chip restores it; a
// window opened elsewhere (another tab, a chat turn) arrives over the runtime event stream; close
// removes it on the server. A chat turn that #mentions an app names it on its activated-apps line,
// with Open, and its `open_app_view` call (the model is a fake OpenAI-compatible server) puts
// the window on the desk. Screenshots go to test-artifacts/app-windows-*.png.
import { dispatcherAppViews } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { createChat, nullLogger, systemClock, turnAssembler } from "@anna-ai/nexus";
import type { Page } from "playwright-core";
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
const EMAIL = "windows@example.com";
const RUNTIME = "/api/v1/anna-apps/runtime";

/** A schema 2 app whose one view is single-instance, sized within its limits by the server. */
function uiManifest(title: string) {
  return {
    schema: 2,
    ui: {
      bundle: { format: "static-spa", entry: "index.html" },
      views: [
        {
          name: "main",
          title,
          default: true,
          single_instance: true,
          min_size: { w: 300, h: 200 },
          default_size: { w: 420, h: 300 },
          max_size: { w: 640, h: 480 },
        },
      ],
    },
  };
}

/**
 * The bundle shows that it runs and what it could reach: its own origin (opaque: "null"), the
 * dashboard's document (a SecurityError), and the API with the person's cookie (no cookie, no
 * CORS: refused or anonymous). No inline script: the bundle's CSP allows none.
 */
const BUNDLE = {
  "index.html": `<!doctype html>
<html><head><meta charset="utf-8"><title>Window app</title><link rel="stylesheet" href="style.css"></head>
<body><h1 id="hello">The window app is running</h1><p id="origin"></p><p id="parent"></p><p id="api">api: pending</p>
<script src="app.js"></script></body></html>
`,
  "style.css": "body { font: 14px system-ui; margin: 12px; }\n",
  "app.js": `const show = (id, text) => { document.getElementById(id).textContent = text; };
show("origin", "origin: " + self.origin);
try {
  show("parent", "parent document read: " + window.parent.document.title);
} catch (e) {
  show("parent", "parent document blocked: " + e.name);
}
fetch("/api/v1/me", { credentials: "include" })
  .then(async (r) => show("api", "api answered " + r.status + ": " + (await r.text()).slice(0, 300)))
  .catch((e) => show("api", "api blocked: " + e.name));
`,
};

describe.skipIf(chromium.skip)(`app windows in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await startFakeProvider();
    const gateway = fakeModelGateway(fake);
    nexus = await startTestNexus({
      dashboard: builtDashboard(),
      runtime: true,
      // The server's own turn assembly: #mentions activate apps, whose views the model may open.
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
    for (const [slug, name] of [
      ["window-notes", "Window Notes"],
      ["window-clock", "Window Clock"],
    ] as const) {
      await apps.app({
        slug,
        name,
        tagline: `${name}, in a window`,
        category: "productivity",
        description: `${name} opens beside the chat.`,
        manifest: uiManifest(name),
        publish: true,
        bundle: BUNDLE,
      });
    }
  });
  afterAll(async () => {
    await nexus?.close();
    await fake?.close();
  });

  async function signUp(page: Page, email = EMAIL) {
    await page.goto(`${nexus.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText(email).waitFor({ timeout: WAIT_MS });
  }

  async function install(page: Page, slug: string, name: string) {
    await page.goto(`${nexus.url}/store/${slug}`);
    await page.getByRole("button", { name: `Install ${name}` }).click();
    await page.getByText("Installed v1.0.0.").waitFor({ timeout: WAIT_MS });
  }

  /** A request with the page's session cookie, as another tab of the same person sends it. */
  async function asPage(page: Page, method: string, p: string, body?: unknown) {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${nexus.url}${p}`, {
      method,
      headers: { cookie, origin: nexus.url, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.ok, `${method} ${p}: ${res.status}`).toBe(true);
    return (await res.json()) as unknown;
  }

  async function serverWindows(page: Page) {
    const { windows } = (await asPage(page, "GET", `${RUNTIME}/windows`)) as {
      windows: { window_uuid: string; title: string; status: string; z_index: number }[];
    };
    return windows;
  }

  const frameOf = (page: Page, title: string) =>
    page.locator(".desk .frame").filter({ has: page.locator(".title", { hasText: title }) });

  async function openFromMyApps(page: Page, name: string) {
    await page.getByRole("link", { name: "My apps" }).click();
    await page.getByRole("button", { name: `Open ${name}` }).click();
    await page.waitForURL(/\/chat$/, { timeout: WAIT_MS });
  }

  it(
    "opens an app's window beside the chat, sandboxed, restored after a reload, closed",
    TIMEOUT,
    async () => {
      const { page, errors } = await openTestPage(browser());
      await signUp(page);
      await install(page, "window-notes", "Window Notes");
      await install(page, "window-clock", "Window Clock");

      // The desk is there but takes no room while no window is open.
      await page.goto(`${nexus.url}/chat`);
      await page.locator(".desk.empty").waitFor({ state: "attached", timeout: WAIT_MS });

      await openFromMyApps(page, "Window Notes");
      const notes = frameOf(page, "Window Notes");
      await notes.waitFor({ timeout: WAIT_MS });
      const app = page.frameLocator(".desk .frame iframe");
      await app.locator("#hello").waitFor({ timeout: WAIT_MS });
      expect(await app.locator("#hello").textContent()).toBe("The window app is running");
      await page.getByRole("complementary", { name: "App windows" }).waitFor();

      // Sandboxed without allow-same-origin, loaded from the bundle route with its token.
      const iframe = notes.locator("iframe");
      const sandbox = (await iframe.getAttribute("sandbox")) ?? "";
      expect(sandbox).toContain("allow-scripts");
      expect(sandbox).not.toContain("allow-same-origin");
      expect(await iframe.getAttribute("src")).toMatch(
        /^\/anna-apps\/window-notes\/1\.0\.0\/index\.html\?wid=[^&]+&t=/,
      );
      // The app cannot read the dashboard, and the API does not answer it as the person.
      expect(await app.locator("#origin").textContent()).toBe("origin: null");
      expect(await app.locator("#parent").textContent()).toMatch(
        /^parent document blocked: SecurityError/,
      );
      await expect
        .poll(() => app.locator("#api").textContent(), { timeout: WAIT_MS })
        .not.toBe("api: pending");
      const apiText = (await app.locator("#api").textContent()) ?? "";
      expect(apiText).not.toContain(EMAIL);
      expect(apiText).toMatch(/^api (blocked|answered 401)/);

      // Sized by the server within the view's limits: its default size.
      expect(await notes.getAttribute("style")).toMatch(/(^|; )width: 420px;/);
      expect(await iframe.getAttribute("style")).toMatch(/(^|; )height: 300px;/);
      const [opened] = await serverWindows(page);
      expect(opened?.title).toBe("Window Notes");
      await screenshot(page, "app-windows-open");

      // Single-instance: opening it again answers the same window.
      await openFromMyApps(page, "Window Notes");
      await notes.waitFor({ timeout: WAIT_MS });
      expect(await page.locator(".desk .frame").count()).toBe(1);
      expect((await serverWindows(page)).map((w) => w.window_uuid)).toEqual([opened?.window_uuid]);

      // The windows are the server's: a reload shows the same window, its bundle running again.
      await page.reload();
      await notes.waitFor({ timeout: WAIT_MS });
      await app.locator("#hello").waitFor({ timeout: WAIT_MS });
      expect(await notes.getAttribute("data-wid")).toBe(opened?.window_uuid);

      // Another tab (or a chat turn) opens a window: it arrives over the runtime event stream.
      const mine = (await asPage(page, "GET", "/api/v1/me/apps")) as { id: number; slug: string }[];
      const clockId = mine.find((a) => a.slug === "window-clock")?.id;
      await asPage(page, "POST", `${RUNTIME}/windows?app_id=${String(clockId)}`, {});
      const clock = frameOf(page, "Window Clock");
      await clock.waitFor({ timeout: WAIT_MS });
      await page.frameLocator(".desk .frame:nth-child(2) iframe").locator("#hello").waitFor({
        timeout: WAIT_MS,
      });

      // Focus: a click on a window's title bar brings it to front, on the server too.
      await notes.locator(".bar .title").click();
      await expect
        .poll(() => notes.getAttribute("class"), { timeout: WAIT_MS })
        .toContain("focused");
      expect(await clock.getAttribute("class")).not.toContain("focused");
      await expect
        .poll(
          async () => {
            const ws = await serverWindows(page);
            const z = (t: string) => ws.find((w) => w.title === t)?.z_index ?? -1;
            return z("Window Notes") > z("Window Clock");
          },
          { timeout: WAIT_MS },
        )
        .toBe(true);
      await screenshot(page, "app-windows-two");

      // Minimise (of the front window) puts a chip in the dock, the iframe unmounted; the chip
      // restores it.
      await notes.getByRole("button", { name: "Minimise to the dock" }).click();
      const dock = page.getByLabel("Minimised windows");
      await dock
        .getByRole("button", { name: "Restore Window Notes" })
        .waitFor({ timeout: WAIT_MS });
      expect(await notes.locator("iframe").count()).toBe(0);
      expect((await serverWindows(page)).find((w) => w.title === "Window Notes")).toMatchObject({
        status: "minimized",
      });
      await dock.getByRole("button", { name: "Restore Window Notes" }).click();
      await notes.locator("iframe").waitFor({ timeout: WAIT_MS });
      await dock.getByRole("button").waitFor({ state: "detached", timeout: WAIT_MS });

      // Close removes the window, on the desk and on the server, for good.
      await notes.getByRole("button", { name: "Close" }).click();
      await notes.waitFor({ state: "detached", timeout: WAIT_MS });
      await clock.getByRole("button", { name: "Close" }).click();
      await clock.waitFor({ state: "detached", timeout: WAIT_MS });
      expect(await serverWindows(page)).toEqual([]);
      await page.reload();
      await page.locator(".desk.empty").waitFor({ state: "attached", timeout: WAIT_MS });
      expect(await page.locator(".desk .frame").count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );

  it("opens the window a chat turn asks for, and offers Open on the turn's activated apps", async () => {
    const { page, errors } = await openTestPage(browser());
    await signUp(page, "turns@example.com");
    await install(page, "window-clock", "Window Clock");
    const mine = (await asPage(page, "GET", "/api/v1/me/apps")) as { id: number; slug: string }[];
    const clockId = String(mine.find((a) => a.slug === "window-clock")?.id);

    await page.goto(`${nexus.url}/chat`);
    fake.enqueue(
      { toolCalls: [{ name: "open_app_view", args: { app_id: clockId } }] },
      { text: "The clock is open beside the chat." },
    );
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("Show me #window-clock please");
    await page.keyboard.press("Enter");
    const clock = frameOf(page, "Window Clock");
    await clock.waitFor({ timeout: WAIT_MS });
    await page.frameLocator(".desk .frame iframe").locator("#hello").waitFor({ timeout: WAIT_MS });
    await page.getByText("The clock is open beside the chat.").waitFor({ timeout: WAIT_MS });
    await page.getByRole("group", { name: "Tool call open_app_view" }).getByText("done").waitFor();
    const [opened] = await serverWindows(page);
    expect(await clock.getAttribute("data-wid")).toBe(opened?.window_uuid);
    await screenshot(page, "app-windows-turn");

    // The turn's activated-apps line: Open on a single-instance view focuses the same window.
    const line = page.locator(".activated-apps");
    await line.getByText("Window Clock").waitFor();
    await line.getByRole("button", { name: "Open Window Clock" }).click();
    await expect.poll(() => clock.getAttribute("class"), { timeout: WAIT_MS }).toContain("focused");
    expect(await page.locator(".desk .frame").count()).toBe(1);
    expect((await serverWindows(page)).map((w) => w.window_uuid)).toEqual([opened?.window_uuid]);
    expect(errors).toEqual([]);
  });
});
