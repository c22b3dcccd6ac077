// The dashboard in Debian's Chromium (playwright-core) against a real Nexus on SQLite serving the
// built files: a newcomer signs up, browses and searches the store, reads what an app may do,
// installs it, finds it in My apps, disables and uninstalls it; a developer sees their apps and
// the reviewer's notes and creates and revokes a token; a newcomer activates developer access
// after reading the terms; an admin works the review queue and signs out their other browsers; the
// page carries its CSP and cannot be framed. Screenshots go to test-artifacts/dashboard-*.png.
import path from "node:path";
import { findDashboardDist } from "@anna-ai/nexus";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { type Publisher, publisher } from "./publish-app.js";
import { builtDashboard, DASHBOARD_DIST } from "./built-dashboard.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;

/** Schema 1 apps need a required executa; web_search is a platform tool every server has. */
const BASIC_MANIFEST = { schema: 1, required_executas: [{ tool_id: "web_search" }] };
const NOTES_MANIFEST = {
  ...BASIC_MANIFEST,
  permissions: ["storage.read", "storage.write", "llm.complete"],
};

describe.skipIf(chromium.skip)(`the dashboard in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let apps: Publisher & { devPat: string };

  beforeAll(async () => {
    // Nexus finds this package's own build: what `npm start` serves is what the tests see.
    expect(path.resolve(findDashboardDist() ?? "")).toBe(path.resolve(DASHBOARD_DIST));
    const { distDir } = builtDashboard();
    nexus = await startTestNexus({ dashboard: { distDir } });
    apps = await publisher(nexus, "dev@example.com", "admin@example.com");
    await apps.app({
      slug: "quick-notes",
      name: "Quick Notes",
      tagline: "Notes that summarise themselves",
      category: "productivity",
      description: "Write notes; ask for a summary.",
      manifest: NOTES_MANIFEST,
      publish: true,
      images: true,
    });
    await apps.app({
      slug: "tide-tables",
      name: "Tide Tables",
      tagline: "When the sea comes in",
      category: "lifestyle",
      description: "Tides for your beach.",
      manifest: BASIC_MANIFEST,
      publish: true,
    });
  });
  afterAll(() => nexus?.close());

  /** A page whose CSP violations and uncaught errors are collected, for an empty check at the end. */
  async function dashboardPage(): Promise<{ page: Page; problems: string[] }> {
    const { page, errors } = await openTestPage(browser());
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text()))
        errors.push(m.text());
    });
    return { page, problems: errors };
  }

  async function signUp(page: Page, email: string) {
    await page.goto(`${nexus.url}/`);
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText(email).waitFor({ timeout: WAIT_MS });
  }

  it("signs up, browses the store, installs an app, sees it in My apps, uninstalls it", async () => {
    const { page, problems } = await dashboardPage();
    await page.goto(`${nexus.url}/`);
    // Keyboard users meet the skip link first (once React has rendered the page).
    await page.getByRole("heading", { level: 1, name: "App Store" }).waitFor({ timeout: WAIT_MS });
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");

    await signUp(page, "newcomer@example.com");
    expect(new URL(page.url()).pathname).toBe("/store");
    const list = page.getByRole("list", { name: "Apps" });
    await list.getByRole("link", { name: "Quick Notes" }).waitFor({ timeout: WAIT_MS });
    await list.getByRole("link", { name: "Tide Tables" }).waitFor();
    await screenshot(page, "dashboard-store");

    await page.getByLabel("Search apps").fill("notes");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/store\?q=notes$/);
    await list.getByRole("link", { name: "Tide Tables" }).waitFor({ state: "detached" });
    expect(await list.getByRole("listitem").count()).toBe(1);

    await page.getByLabel("Search apps").fill("");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByLabel("Category").selectOption("lifestyle");
    await list.getByRole("link", { name: "Quick Notes" }).waitFor({ state: "detached" });
    await list.getByRole("link", { name: "Tide Tables" }).waitFor();
    await page.getByLabel("Category").selectOption("");

    await list.getByRole("link", { name: "Quick Notes" }).click();
    await page.getByRole("heading", { level: 1, name: "Quick Notes" }).waitFor();
    const may = page.getByRole("region", { name: "What this app may do" });
    await may.getByText("Save data for you").waitFor();
    await may.getByText("Ask the AI model questions on your behalf").waitFor();
    await page.getByText("v1.0.0").first().waitFor();
    // The listing's images come from the app-media route, which the CSP's img-src allows.
    const shot = page.getByRole("img", { name: "Quick Notes screenshot 1" });
    await shot.waitFor();
    const loadedWidth = `(() => { const img = document.querySelector('img[alt="Quick Notes screenshot 1"]'); return img && img.complete ? img.naturalWidth : -1; })()`;
    await expect.poll(() => page.evaluate(loadedWidth), { timeout: WAIT_MS }).toBe(480);
    await screenshot(page, "dashboard-app-detail");

    await page.getByRole("button", { name: "Install Quick Notes" }).click();
    await page.getByText("Installed v1.0.0.").waitFor({ timeout: WAIT_MS });
    // A reload lands on the same client route, served by Nexus as the page.
    await page.reload();
    await page.getByText("Installed v1.0.0.").waitFor({ timeout: WAIT_MS });

    await page.getByRole("link", { name: "My apps" }).click();
    const mine = page.getByRole("list", { name: "Installed apps" });
    await mine.getByRole("link", { name: "Quick Notes" }).waitFor({ timeout: WAIT_MS });
    await mine.getByText("enabled").waitFor();
    await page.getByRole("button", { name: "Disable Quick Notes" }).click();
    await mine.getByText("disabled").waitFor({ timeout: WAIT_MS });
    await screenshot(page, "dashboard-my-apps");
    const server = (await (
      await fetch(`${nexus.url}/api/v1/me/apps`, {
        headers: { cookie: await sessionCookie(page) },
      })
    ).json()) as { slug: string; enabled: boolean }[];
    expect(server).toEqual([expect.objectContaining({ slug: "quick-notes", enabled: false })]);

    await page.getByRole("button", { name: "Uninstall Quick Notes" }).click();
    await page.getByText("You have not installed any app yet.").waitFor({ timeout: WAIT_MS });

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin$/);
    await page.goto(`${nexus.url}/apps`);
    await page.waitForURL(/\/signin\?next=%2Fapps$/);
    expect(problems).toEqual([]);
  });

  it("shows the developer their apps and the reviewer's notes, and creates and revokes a token", async () => {
    const id = await apps.app({
      slug: "rough-draft",
      name: "Rough Draft",
      tagline: "Not ready yet",
      category: "productivity",
      description: "A first try.",
      manifest: BASIC_MANIFEST,
      publish: false,
    });
    await apps.app({
      slug: "ready-steady",
      name: "Ready Steady",
      tagline: "Good to go",
      category: "utilities",
      description: "A finished app.",
      manifest: BASIC_MANIFEST,
      publish: false,
    });
    const { page, problems } = await dashboardPage();
    await page.goto(`${nexus.url}/signin`);
    await page.getByLabel("Email").fill("admin@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Review queue" }).click();
    const queue = page.getByRole("list", { name: "Submissions" });
    const item = queue.getByRole("listitem").filter({ hasText: "Rough Draft" });
    await item.waitFor({ timeout: WAIT_MS });
    await item.getByText("Findings, requested access and manifest diff").click();
    await item.getByText(/\d+ errors?, \d+ warnings?, \d+ notes?\./).waitFor({ timeout: WAIT_MS });
    await item.getByText("Manifest diff (first submission)").waitFor();
    await item.getByRole("row").filter({ hasText: "/permissions" }).first().waitFor();
    await screenshot(page, "dashboard-review-queue");
    await item.getByLabel("Reason to reject").fill("The listing needs a screenshot.");
    await item.getByRole("button", { name: "Reject" }).click();
    await item.waitFor({ state: "detached", timeout: WAIT_MS });
    await queue
      .getByRole("listitem")
      .filter({ hasText: "Ready Steady" })
      .getByRole("button", { name: "Approve and publish" })
      .click();
    await page.getByText("Nothing waits for review.").waitFor({ timeout: WAIT_MS });
    // Approved with publish, it is in the store at once.
    await page.getByRole("link", { name: "App Store" }).click();
    await page
      .getByRole("list", { name: "Apps" })
      .getByRole("link", { name: "Ready Steady" })
      .waitFor({ timeout: WAIT_MS });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin$/);

    await page.getByLabel("Email").fill("dev@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Developer" }).click();
    await page.getByText("You are a verified developer.").waitFor({ timeout: WAIT_MS });
    expect(await page.getByLabel("Handle").inputValue()).toBe("acme");
    const row = page.getByRole("row").filter({ hasText: "Rough Draft" });
    await row.getByText("REJECTED").waitFor({ timeout: WAIT_MS });
    await row.getByText("The listing needs a screenshot.").waitFor();
    await row.getByText("v1.0.0 not released").waitFor();
    const live = page.getByRole("row").filter({ hasText: "Quick Notes" });
    await live.getByText("PUBLISHED").waitFor();
    await live.getByText("v1.0.0 released (live)").waitFor();

    const before = await page.getByRole("button", { name: /^Revoke token/ }).count();
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = page.getByLabel("New token (shown once; copy it now)");
    await secret.waitFor({ timeout: WAIT_MS });
    const pat = await secret.inputValue();
    expect((await nexus.call("GET", "/api/v1/me", pat)).status).toBe(200);
    await expect
      .poll(() => page.getByRole("button", { name: /^Revoke token/ }).count(), {
        timeout: WAIT_MS,
      })
      .toBe(before + 1);
    await screenshot(page, "dashboard-developer");
    // Model usage reads /api/v1/me/usage; this server has no gateway, and the panel says so.
    await page.getByRole("heading", { name: "Model usage" }).waitFor();
    await page
      .getByText(/LLM gateway is not configured|tokens in the last/)
      .first()
      .waitFor({ timeout: WAIT_MS });
    // The token just made is the newest of the developer's, so the one with the highest id.
    const listed = (await (
      await nexus.call("GET", "/api/v1/anna-apps/dev/tokens", pat)
    ).json()) as {
      tokens: { id: number }[];
    };
    const tokenId = Math.max(...listed.tokens.map((t) => t.id));
    const newest = page.getByRole("button", { name: `Revoke token ${tokenId}` });
    await newest.click();
    await expect
      .poll(() => page.getByRole("button", { name: /^Revoke token/ }).count(), {
        timeout: WAIT_MS,
      })
      .toBe(before);
    expect((await nexus.call("GET", "/api/v1/me", pat)).status).toBe(401);
    // The rejected app is the developer's to fix: the author's review page shows the reason too.
    const review = await nexus.call("GET", `/api/v1/developer/apps/${id}/review`, apps.devPat);
    expect(JSON.stringify(await review.json())).toContain("The listing needs a screenshot.");
    expect(problems).toEqual([]);
  });

  it("lets a newcomer read the Developer Terms and activate developer access themselves", async () => {
    const { page, problems } = await dashboardPage();
    await signUp(page, "self-serve@example.com");
    await page.getByRole("link", { name: "Developer" }).click();
    // Unverified, the card says to verify first and will not activate.
    await page.getByText("Verify your email address first").waitFor({ timeout: WAIT_MS });
    await nexus.verifyEmail("self-serve@example.com");
    await page.reload();
    const card = page.getByRole("form", { name: "Activate developer access" });
    await card.waitFor({ timeout: WAIT_MS });
    const terms = card.getByRole("document", { name: "Developer Terms of Service" });
    expect(await terms.textContent()).toContain("## 1. Developer access");
    const activate = card.getByRole("button", { name: "Activate developer access" });
    expect(await activate.isDisabled()).toBe(true);
    await card.getByLabel("I have read and accept the Developer Terms of Service").check();
    await card.getByLabel(/Public handle/).fill("self-made");
    await activate.click();
    await page.getByText("You are a verified developer.").waitFor({ timeout: WAIT_MS });
    const me = (await (
      await fetch(`${nexus.url}/api/v1/me`, { headers: { cookie: await sessionCookie(page) } })
    ).json()) as Record<string, unknown>;
    expect(me).toMatchObject({
      developer_state: "verified",
      developer_tos_version: "2026-01",
      developer_handle: "self-made",
    });
    expect(problems).toEqual([]);
  });

  it("lists the admin's signed-in browsers, signs out the others, shows the server's settings", async () => {
    // Another browser of the admin's, signed in over the API.
    const other = await fetch(`${nexus.url}/api/v1/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: nexus.url },
      body: JSON.stringify({ email: "admin@example.com", password: PASSWORD }),
    });
    const otherCookie = /anna_session=[^;]+/.exec(other.headers.get("set-cookie") ?? "")![0];
    const { page, problems } = await dashboardPage();
    await page.goto(`${nexus.url}/signin`);
    await page.getByLabel("Email").fill("admin@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Settings" }).click();
    const sessions = page.getByRole("table", { name: "Active sessions" });
    await sessions.getByText("this one").waitFor({ timeout: WAIT_MS });
    expect(
      await sessions.getByRole("button", { name: /^Sign out the session of/ }).count(),
    ).toBeGreaterThan(0);
    await page.getByText("The LLM gateway is not configured on this server.").waitFor();
    await screenshot(page, "dashboard-settings");
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await page.getByText(/^Signed out \d+ other sessions?\.$/).waitFor({ timeout: WAIT_MS });
    const me = await fetch(`${nexus.url}/api/v1/me`, { headers: { cookie: otherCookie } });
    expect(me.status).toBe(401);
    expect(await sessions.getByRole("button", { name: /^Sign out the session of/ }).count()).toBe(
      0,
    );
    expect(problems).toEqual([]);
  });

  it("answers with its CSP and no framing, and a frame of it from another origin stays empty", async () => {
    for (const p of ["/", "/store/quick-notes"]) {
      const res = await fetch(`${nexus.url}${p}`);
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(await res.text()).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    }
    const { page } = await openTestPage(browser());
    const refused = page.waitForEvent("console", {
      predicate: (m) => /frame-ancestors|X-Frame-Options/i.test(m.text()),
      timeout: WAIT_MS,
    });
    // `localhost` is another origin than 127.0.0.1 for the browser, and a Host Nexus answers.
    const framer = nexus.url.replace("127.0.0.1", "localhost");
    await page.goto(`${framer}/healthz`);
    await page.setContent(`<iframe title="framed" src="${nexus.url}/store"></iframe>`);
    await refused;
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // The refused frame holds Chromium's error page, not the dashboard's #root.
    const rendered = await frame
      ?.evaluate("document.getElementById('root') !== null")
      .catch(() => false);
    expect(rendered ?? false).toBe(false);
  });
});

/** The page's session cookie as a Cookie header, to ask the server what it stored. */
async function sessionCookie(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}
