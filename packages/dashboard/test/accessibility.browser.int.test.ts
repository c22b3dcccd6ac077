// The dashboard's accessibility bar (issue 14: keyboard navigable, labelled controls, visible
// focus, AA contrast), checked on every page a person reaches, in Debian's Chromium against a
// real Nexus: signed out (sign in, sign up, the store), signed in as an admin who is also a
// developer (chat with a streamed answer, the store and an app's page, My apps, the Developer
// Console, settings, the review queue). On each: no visible control without an accessible name,
// no text under 4.5:1 (3:1 large), and every Tab stop shows a focus indicator. What fails is
// listed with the element and its figures. Screenshots go to test-artifacts/a11y-*.png.
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { createChat, nullLogger, systemClock } from "@anna-ai/nexus";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { focusWithoutIndicator, lowContrastText, unlabelledControls } from "./a11y-checks.js";
import { plantFailuresInPage } from "./a11y-in-page.js";
import { builtDashboard } from "./built-dashboard.js";
import { fakeModelGateway } from "./fake-model.js";
import { publisher } from "./publish-app.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;
const TIMEOUT = { timeout: 120_000 };
const EMAIL = "reader@example.com";

describe.skipIf(chromium.skip)(
  `the dashboard's accessibility in Chromium${chromium.reason}`,
  () => {
    const browser = useBrowser();
    let nexus: TestNexus;
    let fake: FakeProvider;

    beforeAll(async () => {
      fake = await startFakeProvider();
      const gateway = fakeModelGateway(fake);
      nexus = await startTestNexus({
        dashboard: builtDashboard(),
        chat: (db) =>
          createChat({
            db,
            gateway,
            clock: systemClock,
            logger: nullLogger,
            pollMs: 50,
            streamLimits: { keepaliveMs: 1000 },
          }),
      });
      const apps = await publisher(nexus, "dev@example.com", "admin@example.com");
      await apps.app({
        slug: "quick-notes",
        name: "Quick Notes",
        tagline: "Notes that summarise themselves",
        category: "productivity",
        description: "Write notes; ask for a summary.",
        manifest: {
          schema: 1,
          required_executas: [{ tool_id: "web_search" }],
          permissions: ["storage.read", "storage.write"],
        },
        publish: true,
        images: true,
      });
      // One submission waiting, so the review queue has a card to check.
      await apps.app({
        slug: "tide-tables",
        name: "Tide Tables",
        tagline: "When the sea comes in",
        category: "lifestyle",
        description: "Tides for your beach.",
        manifest: { schema: 1, required_executas: [{ tool_id: "web_search" }] },
        publish: false,
      });
    });
    afterAll(async () => {
      await nexus?.close();
      await fake?.close();
    });

    /** Every check on the page as it is now; the failures, by check. */
    async function audit(page: Page, name: string) {
      await screenshot(page, `a11y-${name}`);
      return {
        page: name,
        unlabelled: await unlabelledControls(page),
        contrast: await lowContrastText(page),
        focus: await focusWithoutIndicator(page),
      };
    }
    const clean = (name: string) => ({ page: name, unlabelled: [], contrast: [], focus: [] });

    async function visit(page: Page, path: string, ready: string) {
      await page.goto(`${nexus.url}${path}`);
      await page.getByRole("heading", { level: 1, name: ready }).waitFor({ timeout: WAIT_MS });
      // Lazy chunks and queries settle: no "Loading …" left.
      await expect.poll(() => page.getByText(/^Loading /).count(), { timeout: WAIT_MS }).toBe(0);
    }

    it(
      "finds what it is there to find: an unlabelled control, faint text, a hidden focus",
      TIMEOUT,
      async () => {
        const { page } = await openTestPage(browser());
        await visit(page, "/signin", "Sign in");
        // Through the CSSOM (the page's CSP allows no inline style): the checks read computed styles.
        await page.evaluate(plantFailuresInPage);
        // The stylesheet's :focus-visible ring must lose to the element's own `outline: none`.
        const found = await audit(page, "planted");
        expect(found.unlabelled).toHaveLength(1);
        expect(found.contrast.join("\n")).toContain('"faint words"');
        expect(found.focus.join("\n")).toContain('"no ring"');
        expect(found.unlabelled[0]).toMatch(/^<button/);
      },
    );

    it("holds on the signed-out pages", TIMEOUT, async () => {
      const { page, errors } = await openTestPage(browser());
      for (const [path, title] of [
        ["/signin", "Sign in"],
        ["/signup", "Create your account"],
        ["/store", "App Store"],
      ] as const) {
        await visit(page, path, title);
        expect(await audit(page, path.slice(1))).toEqual(clean(path.slice(1)));
      }
      expect(errors).toEqual([]);
    });

    it("holds on every signed-in page, a streamed answer included", TIMEOUT, async () => {
      const { page, errors } = await openTestPage(browser());
      await page.goto(`${nexus.url}/signup`);
      await page.getByLabel("Email").fill(EMAIL);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await page.getByText(EMAIL).waitFor({ timeout: WAIT_MS });
      await nexus.makeAdmin(EMAIL);
      await nexus.makeDeveloper(EMAIL);

      await visit(page, "/chat", "Chat");
      fake.enqueue({ text: ["## Plan\n\n", "- **first** step\n", "- second step\n"] });
      await page.getByRole("textbox", { name: "Message" }).fill("Make me a plan");
      await page.keyboard.press("Enter");
      const answer = page.getByRole("region", { name: "Anna's answer" });
      await answer.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: WAIT_MS });
      expect(await audit(page, "chat")).toEqual(clean("chat"));

      for (const [path, title, name] of [
        ["/store", "App Store", "store-signed-in"],
        ["/store/quick-notes", "Quick Notes", "app-detail"],
        ["/apps", "My apps", "my-apps"],
        ["/developer", "Developer Console", "developer"],
        ["/settings", "Settings", "settings"],
        ["/admin/review", "Review queue", "review"],
      ] as const) {
        await visit(page, path, title);
        expect(await audit(page, name)).toEqual(clean(name));
      }
      expect(errors).toEqual([]);
    });
  },
);
