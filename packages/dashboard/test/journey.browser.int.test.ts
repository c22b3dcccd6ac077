// The dashboard's whole journey in one story, in Debian's Chromium against the real server
// (`anna-nexus start` in this process, as `npm start` runs it: release review on, plugins in the
// bubblewrap sandbox, its model a fake OpenAI-compatible provider). Its author has published
// Focus Flow 0.1.0 with `anna-app` and an admin approved it (setup, over the API and the CLI).
// Then, through the UI: a new person signs up, installs Focus Flow from the store, #mentions it
// in the chat and the model's call of its Python executa (the day's stats) shows as a tool card; its window opens
// beside the chat and runs a focus session, which the bundle's `storage.set` writes to the
// server's APS storage and its `storage.get` reads back after the window is closed and opened
// again; the author publishes 1.1.0 with `anna-app apps publish` and `apps release` (the CLI has
// no UI; their Developer Console shows it waiting), the admin approves the release in the
// review queue, the person sees the update in My apps, updates, and the window reopens at 1.1.0.
// A second test is the bundle's side of security: from inside the app's iframe, the dashboard's
// API answers no one with the person's cookie; and the dashboard refuses to be framed.
// Screenshots go to test-artifacts/journey-*.png.
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { openDatabase } from "@anna-ai/nexus";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { BWRAP, SKIP_REASON } from "../../agent/test/executor/sandbox-helpers.js";
import { needs } from "../../../tests/support/toolchains.js";
import {
  createDeveloper,
  type Platform,
  runAnnaApp,
  stageExample,
  startPlatform,
} from "./journey-platform.js";
import { builtDashboard } from "./built-dashboard.js";

const tools = needs("chromium", "python3");
const skip = tools.skip || !BWRAP.usable || process.platform !== "linux";
const reason = tools.reason || (BWRAP.usable ? "" : ` (skipped: ${SKIP_REASON})`);
const WAIT_MS = 15_000;
/** The whole story; the budget is about a minute on a warm two-core machine. */
const JOURNEY = { timeout: 120_000 };
const PASSWORD = "correct horse battery";
const USER = "journey@example.com";
const AUTHOR = { email: "author@example.com", password: PASSWORD, handle: "acme" };
const SLUG = "focus-flow";
const LOG_KEY = "focus-flow/log";

describe.skipIf(skip)(`the dashboard's whole journey${reason}`, () => {
  const browser = useBrowser();
  let fake: FakeProvider;
  let platform: Platform;
  let authorPat: string;
  const consoleLines: string[] = [];

  beforeAll(async () => {
    builtDashboard(); // the platform serves it: fail here, clearly, when it is not built
    fake = await startFakeProvider();
    platform = await startPlatform({ baseUrl: fake.baseUrl, model: "fake-chat-1" });
    authorPat = await createDeveloper(platform.server, AUTHOR);
    // Focus Flow 0.1.0 as its author publishes it, and an admin's approve-and-publish.
    const v010 = await stageExample(SLUG, "0.1.0");
    const cli = (...argv: string[]) =>
      runAnnaApp(argv, { cwd: v010, host: platform.url, pat: authorPat });
    await cli("apps", "publish", "--json", "--no-write");
    await cli("apps", "submit-review", SLUG, "--json");
    const mine = await fetch(`${platform.url}/api/v1/developer/apps`, {
      headers: { authorization: `Bearer ${authorPat}` },
    });
    const listed = JSON.stringify(await mine.json());
    const id = /"id":(\d+),[^{}]*"slug":"focus-flow"/.exec(listed)?.[1];
    expect(id, listed).toBeDefined();
    await adminCall("POST", `/api/v1/super-admin/apps/${id}/approve`, { publish: true });
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
    await fake?.close();
  });

  /** A request as the first admin, signed in with the password `npm start` prints. */
  async function adminCall(method: string, p: string, body?: unknown): Promise<unknown> {
    const signin = await fetch(`${platform.url}/api/v1/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: platform.url },
      body: JSON.stringify(platform.admin),
    });
    const cookie = /anna_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const res = await fetch(`${platform.url}${p}`, {
      method,
      headers: { cookie, origin: platform.url, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
    return JSON.parse(text) as unknown;
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${platform.url}/signin`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: WAIT_MS });
  }

  /** The person's stored Focus Flow log, read from the server's own database. */
  async function storedLog(): Promise<unknown> {
    const handle = openDatabase({ dataDir: platform.server.dataDir });
    try {
      const row = await handle.db
        .selectFrom("storage_kv")
        .select(["payload", "scope"])
        .where("key", "=", LOG_KEY)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      return row === undefined ? undefined : { scope: row.scope, value: JSON.parse(row.payload) };
    } finally {
      await handle.close();
    }
  }

  const focusFrame = (page: Page) =>
    page
      .locator(".desk .frame")
      .filter({ has: page.locator(".title", { hasText: "Focus" }) })
      .first();
  const focusApp = (page: Page) => page.frameLocator(".desk .frame iframe").first();

  /** The window shows `state` (idle, running), or a throw with what it shows instead. */
  async function windowState(page: Page, state: string) {
    const app = focusApp(page);
    try {
      await app
        .locator(`body[data-state="${state}"]`)
        .waitFor({ state: "attached", timeout: WAIT_MS });
    } catch (err) {
      const shown = await app
        .locator("body")
        .innerText({ timeout: 1000 })
        .catch(() => "");
      throw new Error(
        `the Focus Flow window is not ${state}; it shows: ${shown}\nconsole: ${consoleLines.join("\n")}`,
        { cause: err },
      );
    }
  }

  it(
    "signs up, installs, chats with a tool card, round-trips storage, and updates to 1.1.0",
    JOURNEY,
    async () => {
      const { page, errors } = await openTestPage(browser());
      page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));

      // 1. A new person signs up.
      await page.goto(`${platform.url}/`);
      await page.getByRole("link", { name: "Sign up" }).click();
      await page.getByLabel("Email").fill(USER);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await page.getByText(USER).waitFor({ timeout: WAIT_MS });
      await screenshot(page, "journey-1-signed-up");

      // 2. Installs Focus Flow from the store, its executa with it.
      await page.getByRole("link", { name: "App Store" }).click();
      await page
        .getByRole("list", { name: "Apps" })
        .getByRole("link", { name: "Focus Flow" })
        .click();
      await page.getByRole("button", { name: "Install Focus Flow" }).click();
      await page.getByText("Installed v0.1.0.").waitFor({ timeout: WAIT_MS });
      await screenshot(page, "journey-2-installed");

      // 3. #mentions it in the chat: the model calls its executa, run in the sandbox.
      await page.getByRole("link", { name: "Chat" }).click();
      const tool = "focus-session__stats";
      fake.enqueue(
        { toolCalls: [{ name: tool, args: { sessions: [] } }] },
        { text: "No focus sessions yet today: start one in the Focus Flow window." },
      );
      await page.getByRole("textbox", { name: "Message" }).fill("#focus-flow how did I do today?");
      await page.keyboard.press("Enter");
      await page
        .getByText("No focus sessions yet today: start one in the Focus Flow window.")
        .waitFor({ timeout: WAIT_MS });
      const card = page.getByRole("group", { name: `Tool call ${tool}` });
      await card.getByText("done").waitFor({ timeout: WAIT_MS });
      expect(await card.textContent()).toContain("No sessions yet");
      // The model was offered the app's tools because the app was #mentioned.
      const offered = JSON.stringify(fake.requests[0]?.body);
      expect(offered).toContain("focus-session__start_session");
      await screenshot(page, "journey-3-tool-card");

      // 4. Its window opens beside the chat; a focus session goes through the executa and the
      // bundle's storage.set; closed and opened again, storage.get reads the log back.
      await page
        .locator(".activated-apps")
        .getByRole("button", { name: "Open Focus Flow" })
        .click();
      await focusFrame(page).waitFor({ timeout: WAIT_MS });
      const app = focusApp(page);
      await windowState(page, "idle");
      await app.getByLabel("Task").fill("Journey task");
      await app.getByRole("button", { name: "Start focus" }).click();
      await windowState(page, "running");
      await app.getByRole("button", { name: "Finish session" }).click();
      await app.locator("#log li").first().waitFor({ timeout: WAIT_MS });
      expect(
        await app.locator("#error").isHidden(),
        (await app.locator("#error").textContent()) ?? "",
      ).toBe(true);
      const stored = (await storedLog()) as { scope: string; value: { task: string }[] };
      expect(stored.scope).toBe("app");
      expect(stored.value.map((s) => s.task)).toEqual(["Journey task"]);
      await screenshot(page, "journey-4-window-session");
      await focusFrame(page).getByRole("button", { name: "Close" }).click();
      await focusFrame(page).waitFor({ state: "detached", timeout: WAIT_MS });
      await page.getByRole("link", { name: "My apps" }).click();
      await page.getByRole("button", { name: "Open Focus Flow" }).click();
      await focusApp(page).locator("#log li").first().waitFor({ timeout: WAIT_MS });
      expect(await focusApp(page).locator("#log li").first().textContent()).toContain(
        "Journey task",
      );
      await screenshot(page, "journey-5-storage-read-back");

      // 5. The author publishes 1.1.0 with anna-app; release review holds it for an admin.
      const v110 = await stageExample(SLUG, "1.1.0");
      const cli = (...argv: string[]) =>
        runAnnaApp(argv, { cwd: v110, host: platform.url, pat: authorPat });
      await cli("apps", "publish", "--json", "--no-write");
      const released = JSON.parse(
        await cli("apps", "release", "1.1.0", "--slug", SLUG, "--json"),
      ) as { release_review_state: string | null };
      expect(released.release_review_state).toBe("pending");
      const author = await openTestPage(browser());
      await signIn(author.page, AUTHOR.email, AUTHOR.password);
      await author.page.getByRole("link", { name: "Developer" }).click();
      const row = author.page.getByRole("row").filter({ hasText: "Focus Flow" });
      await row.getByText(/v1\.1\.0/).waitFor({ timeout: WAIT_MS });
      await screenshot(author.page, "journey-6-author-console");

      // 6. An admin approves the release in the review queue.
      const admin = await openTestPage(browser());
      await signIn(admin.page, platform.admin.email, platform.admin.password);
      await admin.page.getByRole("link", { name: "Review queue" }).click();
      const release = admin.page
        .getByRole("list", { name: "Releases" })
        .getByRole("listitem")
        .filter({ hasText: "Focus Flow" });
      await release.getByText("v1.1.0").waitFor({ timeout: WAIT_MS });
      await screenshot(admin.page, "journey-7-release-review");
      await release.getByRole("button", { name: "Approve release" }).click();
      await release.waitFor({ state: "detached", timeout: WAIT_MS });

      // 7. The person sees the update in My apps, updates, and the window opens at 1.1.0.
      await page.getByRole("link", { name: "My apps" }).click();
      await page.reload();
      await page.getByText("(v1.1.0 available)").waitFor({ timeout: WAIT_MS });
      await screenshot(page, "journey-8-update-available");
      await page.getByRole("button", { name: "Update Focus Flow" }).click();
      await page.getByText("v1.1.0 · enabled").waitFor({ timeout: WAIT_MS });
      await page.getByRole("button", { name: "Open Focus Flow" }).click();
      const frame = focusFrame(page);
      await frame.waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() => frame.locator("iframe").getAttribute("src"), { timeout: WAIT_MS })
        .toMatch(/^\/anna-apps\/focus-flow\/1\.1\.0\/index\.html\?/);
      await focusApp(page).locator("#log li").first().waitFor({ timeout: WAIT_MS });
      await screenshot(page, "journey-9-window-1-1-0");
      expect([...errors, ...author.errors, ...admin.errors]).toEqual([]);
    },
  );

  it("keeps the bundle away from the dashboard's API and refuses to be framed", async () => {
    const b: Browser = browser();
    const { page } = await openTestPage(b);
    await signIn(page, USER, PASSWORD);
    await page.getByRole("link", { name: "My apps" }).click();
    await page.getByRole("button", { name: "Open Focus Flow" }).click();
    await focusFrame(page).waitFor({ timeout: WAIT_MS });
    // The window's frame is there before its iframe navigates to the bundle (it starts as
    // about:blank): wait for the bundle's document, not just the window.
    const bundleFrame = () => page.frames().find((f) => f.url().includes(`/anna-apps/${SLUG}/`));
    await expect.poll(() => bundleFrame() !== undefined, { timeout: WAIT_MS }).toBe(true);
    // From inside the bundle: the dashboard's API with the person's cookie, on its origin.
    const frame = bundleFrame();
    await frame!.waitForLoadState("load", { timeout: WAIT_MS });
    expect(
      frame,
      page
        .frames()
        .map((f) => f.url())
        .join(", "),
    ).toBeDefined();
    const attempt = await frame!.evaluate(async (api) => {
      try {
        const r = await fetch(api, { credentials: "include" });
        return `answered ${r.status}: ${(await r.text()).slice(0, 200)}`;
      } catch (e) {
        return `blocked: ${(e as Error).name}`;
      }
    }, `${platform.url}/api/v1/me`);
    expect(attempt).not.toContain(USER);
    expect(attempt).toMatch(/^(blocked: TypeError|answered 401)/);
    expect(await frame!.evaluate("self.origin")).toBe("null");

    // The dashboard in another site's frame: refused by its headers, and by the browser.
    const res = await fetch(`${platform.url}/chat`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const framer = await openTestPage(b);
    await framer.page.route("http://framer.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<iframe id="d" src="${platform.url}/chat" width="600" height="400"></iframe>`,
      }),
    );
    await framer.page.goto("http://framer.test/");
    // Chromium puts its error page where a refused frame would have been.
    await expect
      .poll(() => framer.page.frames()[1]?.url(), { timeout: WAIT_MS })
      .toMatch(/^chrome-error:/);
    await screenshot(framer.page, "journey-10-framing-refused");
  });
});
