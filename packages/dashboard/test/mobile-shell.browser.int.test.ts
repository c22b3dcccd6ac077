// The mobile shell (`/api/v1/anna-apps/runtime/mobile-shell?wid=…`) against a real Nexus on
// SQLite with the app runtime. Over HTTP: who may load it (a PAT with aps:dev or a session; not
// anonymous, not for someone else's window, not a malformed wid), and the scoped cookie it sets
// for a token (HttpOnly, SameSite=Strict, the runtime path only, dead with its token). In
// Debian's Chromium at 390×844 with a notch and a home indicator emulated (CDP safe-area
// override): the first request carries the token as a device would, the window opens full screen
// on the view's mobile entry, the bundle's `--anna-safe-area-*` variables say how much of the
// unsafe edges lies over it, `window.open_view` stacks a second window on top and Back returns
// to the first. Screenshots go to test-artifacts/mobile-shell-*.png.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";
import { publisher } from "./publish-app.js";

const chromium = needs("chromium");
const WAIT_MS = 10_000;
const TIMEOUT = { timeout: 60_000 };
const RUNTIME = "/api/v1/anna-apps/runtime";
const SHELL = `${RUNTIME}/mobile-shell`;
const SLUG = "phone-notes";
const NOTCH = { top: 47, right: 0, bottom: 34, left: 0 };

const MANIFEST = {
  schema: 2,
  ui: {
    form_factors: ["desktop", "mobile"],
    bundle: { format: "static-spa", entry: "index.html" },
    views: [
      { name: "main", title: "Phone Notes", default: true, mobile_entry: "mobile.html" },
      { name: "detail", title: "Note detail" },
    ],
  },
};

/** Connects with the SDK the platform serves and shows the safe-area variables it was given. */
const APP_JS = `import { connect } from "/static/anna-apps/_sdk/latest/index.js";
const $ = (id) => document.getElementById(id);
const show = () => {
  const css = getComputedStyle(document.documentElement);
  $("insets").textContent = ["top", "right", "bottom", "left"]
    .map((s) => s + "=" + css.getPropertyValue("--anna-safe-area-" + s).trim()).join(" ");
};
const anna = await connect();
$("state").textContent = "connected: " + anna.viewMeta.name;
show();
anna.on("safe_area", show);
$("detail").addEventListener("click", () => anna.window.open_view({ view: "detail" }));
`;
const page = (title: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p id="state">state: pending</p><p id="insets"></p>
<button id="detail">Open detail</button><script type="module" src="app.js"></script></body></html>
`;
const BUNDLE = {
  "index.html": page("Phone Notes, desktop"),
  "mobile.html": page("Phone Notes, mobile"),
  "app.js": APP_JS,
};

describe("the mobile shell", () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let appId: number;

  beforeAll(async () => {
    nexus = await startTestNexus({
      dashboard: builtDashboard("mobile-shell.html"),
      runtime: true,
    });
    const apps = await publisher(nexus, "dev@example.com", "admin@example.com");
    appId = await apps.app({
      slug: SLUG,
      name: "Phone Notes",
      tagline: "Notes on the phone",
      category: "productivity",
      description: "Notes that open on the phone.",
      manifest: MANIFEST,
      publish: true,
      bundle: BUNDLE,
    });
  });
  afterAll(async () => {
    await nexus?.close();
  });

  let people = 0;
  /** A person with the app installed, their PAT, and a window of it open on the server. */
  async function personWithWindow() {
    people += 1;
    const cookie = await nexus.signup(`phone${people}@example.com`);
    const { pat, token_id } = await nexus.devicePat(cookie);
    const auth = { authorization: `Bearer ${pat}`, "content-type": "application/json" };
    const install = await fetch(`${nexus.url}/api/v1/store/apps/${SLUG}/install`, {
      method: "POST",
      headers: auth,
      body: "{}",
    });
    expect(install.status, await install.clone().text()).toBeLessThan(300);
    const opened = await fetch(`${nexus.url}${RUNTIME}/windows?app_id=${appId}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ form_factor: "mobile" }),
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { window } = (await opened.json()) as { window: { window_uuid: string } };
    return { cookie, pat, tokenId: token_id, wid: window.window_uuid };
  }

  it("is for its window's owner only, and says what was wrong", TIMEOUT, async () => {
    const alice = await personWithWindow();
    const bob = await personWithWindow();
    const get = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${nexus.url}${SHELL}${query}`, { headers });

    const anonymous = await get(`?wid=${alice.wid}`);
    expect(anonymous.status).toBe(401);

    const someoneElses = await get(`?wid=${alice.wid}`, { authorization: `Bearer ${bob.pat}` });
    expect(someoneElses.status).toBe(404);
    expect(await someoneElses.text()).toMatch(/no open window .* of yours/);

    const malformed = await get(`?wid=${encodeURIComponent("../x")}`, {
      authorization: `Bearer ${alice.pat}`,
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toMatch(/wid must be a window's uuid/);

    // A signed-in browser needs no token, and gets no cookie.
    const bySession = await get(`?wid=${alice.wid}`, { cookie: alice.cookie });
    expect(bySession.status).toBe(200);
    expect(bySession.headers.get("set-cookie")).toBeNull();

    const byToken = await get(`?wid=${alice.wid}`, { authorization: `Bearer ${alice.pat}` });
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get("content-type")).toMatch(/^text\/html/);
    expect(byToken.headers.get("x-frame-options")).toBe("DENY");
    expect(byToken.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(byToken.headers.get("cache-control")).toBe("no-store");
    expect(await byToken.text()).toContain('name="viewport"');
    const setCookie = byToken.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^anna_runtime=/);
    expect(setCookie).toContain(`Path=${RUNTIME}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    const runtimeCookie = setCookie.split(";")[0] as string;

    // The cookie reaches the runtime wire, and nothing else.
    const windows = await fetch(`${nexus.url}${RUNTIME}/windows`, {
      headers: { cookie: runtimeCookie },
    });
    expect(windows.status).toBe(200);
    const me = await fetch(`${nexus.url}/api/v1/me`, { headers: { cookie: runtimeCookie } });
    expect(me.status).toBe(401);
    // A cross-site write with it is refused like any cookie's.
    const forged = await fetch(`${nexus.url}${RUNTIME}/windows/${alice.wid}`, {
      method: "DELETE",
      headers: { cookie: runtimeCookie, "sec-fetch-site": "cross-site" },
    });
    expect(forged.status).toBe(403);

    // Revoking the token ends the cookie too, with a message that says so.
    const revoke = await nexus.call(
      "POST",
      `/api/v1/anna-apps/dev/tokens/${alice.tokenId}/revoke`,
      alice.pat,
    );
    expect(revoke.status).toBeLessThan(300);
    const afterRevoke = await fetch(`${nexus.url}${RUNTIME}/windows`, {
      headers: { cookie: runtimeCookie },
    });
    expect(afterRevoke.status).toBe(401);
    expect(await afterRevoke.text()).toMatch(/mobile shell's token .* was revoked/);
  });

  async function openShell(pat: string, wid: string): Promise<Page> {
    const context = await browser().newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    // What a device (or a request-interceptor extension) does: the token on the first request only.
    const shellUrl = `${nexus.url}${SHELL}?wid=${wid}`;
    await page.route(shellUrl, (route) =>
      route.continue({
        headers: { ...route.request().headers(), authorization: `Bearer ${pat}` },
      }),
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setSafeAreaInsetsOverride" as never, { insets: NOTCH } as never);
    await page.goto(shellUrl);
    return page;
  }

  it.skipIf(chromium.skip)(
    `shows the window full screen on its mobile entry, with safe areas and a stack${chromium.reason}`,
    TIMEOUT,
    async () => {
      const alice = await personWithWindow();
      const page = await openShell(alice.pat, alice.wid);
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      try {
        const first = page.locator(`.frame[data-wid="${alice.wid}"]`);
        await first.waitFor({ timeout: WAIT_MS });
        expect(await first.locator("iframe").getAttribute("src")).toMatch(
          new RegExp(`^/anna-apps/${SLUG}/1\\.0\\.0/mobile\\.html\\?wid=`),
        );
        const app = page.frameLocator(`.frame[data-wid="${alice.wid}"] iframe`);
        await app.getByText("connected: main").waitFor({ timeout: WAIT_MS });
        // The sheet fills the screen; its bar sits under the status bar, so only the home
        // indicator lies over the iframe.
        const box = await first.boundingBox();
        expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
        await expect
          .poll(() => app.locator("#insets").textContent(), { timeout: WAIT_MS })
          .toBe("top=0px right=0px bottom=34px left=0px");
        await screenshot(page, "mobile-shell-window");

        // The app opens another view: it stacks on top, full screen, and Back returns.
        await app.getByRole("button", { name: "Open detail" }).click();
        const frames = page.locator(".frame:not(.minimised)");
        await expect.poll(() => frames.count(), { timeout: WAIT_MS }).toBe(2);
        const detail = page.locator(".frame", {
          has: page.locator(".title", { hasText: "Note detail" }),
        });
        await detail.waitFor({ timeout: WAIT_MS });
        expect(await detail.boundingBox()).toMatchObject({ x: 0, y: 0, width: 390 });
        await screenshot(page, "mobile-shell-stack");
        await detail.getByRole("button", { name: "Back to the tray of open windows" }).click();
        await expect.poll(() => frames.count(), { timeout: WAIT_MS }).toBe(1);
        await app.getByText("connected: main").waitFor({ timeout: WAIT_MS });
        // The Back'd window waits in the tray, a touch target of at least 44 px.
        const chip = page.locator(".desk-dock .chip");
        await chip.waitFor({ timeout: WAIT_MS });
        expect((await chip.boundingBox())?.height).toBeGreaterThanOrEqual(44);
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    },
  );
});
