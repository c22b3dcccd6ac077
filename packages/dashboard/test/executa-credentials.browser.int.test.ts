// The plugin credential form of My apps in Debian's Chromium (playwright-core) against a real
// Nexus on SQLite: a person who has a plugin that declares an API key sees it "not set", types it
// into a password field and saves, sees "set" (the value never comes back to the page, not even
// after a reload), clears it, and the server agrees at each step. Screenshot:
// test-artifacts/dashboard-credentials.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { publisher } from "./publish-app.js";
import { builtDashboard } from "./built-dashboard.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;
const SECRET = "sk_live_browser_0123456789";

describe.skipIf(chromium.skip)(`plugin credentials in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let toolId: string;

  beforeAll(async () => {
    const { distDir } = builtDashboard();
    nexus = await startTestNexus({ dashboard: { distDir } });
    const apps = await publisher(nexus, "dev@example.com", "admin@example.com");
    toolId = await apps.tool("weather-keys", "Weather", [
      {
        name: "WEATHER_API_KEY",
        display_name: "Weather API key",
        description: "From your weather provider's console",
        required: true,
      },
      {
        name: "WEATHER_UNITS",
        display_name: "Units",
        required: false,
        sensitive: false,
        default: "metric",
      },
    ]);
  });
  afterAll(() => nexus?.close());

  it("sets an API key in a password field, shows only whether it is set, clears it", async () => {
    const { page, errors } = await openTestPage(browser());
    await page.goto(`${nexus.url}/`);
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("Email").fill("keys@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("keys@example.com").waitFor({ timeout: WAIT_MS });
    // The person installs the public plugin (as the store's executa install does).
    const installed = await page.evaluate(
      async (id) => (await fetch(`/api/v1/me/executas/${id}`, { method: "PUT" })).status,
      toolId,
    );
    expect(installed).toBe(201);
    const server = () =>
      page.evaluate(async (id) => {
        const res = await fetch(`/api/v1/me/executas/${id}/credentials`);
        return (await res.text()) as string;
      }, toolId);

    await page.getByRole("link", { name: "My apps" }).click();
    const form = page.getByRole("form", { name: "Credentials of Weather" });
    await form.waitFor({ timeout: WAIT_MS });
    const key = form.getByLabel("Weather API key (required)");
    expect(await key.getAttribute("type")).toBe("password");
    expect(await form.getByLabel("Units", { exact: true }).getAttribute("type")).toBe("text");
    await form.getByLabel("Weather API key status").getByText("not set").waitFor();

    await key.fill(SECRET);
    await form.getByRole("button", { name: "Save credentials" }).click();
    await form.getByLabel("Weather API key status").getByText("set", { exact: true }).waitFor();
    expect(await key.inputValue()).toBe("");
    await screenshot(page, "dashboard-credentials");
    const saved = await server();
    expect(saved).toContain('"is_set":true');
    expect(saved).not.toContain(SECRET);

    await page.reload();
    await form.getByLabel("Weather API key status").getByText("set", { exact: true }).waitFor({
      timeout: WAIT_MS,
    });
    expect(await page.content()).not.toContain(SECRET);

    await form.getByRole("button", { name: "Clear Weather API key" }).click();
    await form.getByLabel("Weather API key status").getByText("not set").waitFor();
    expect(await server()).not.toContain('"is_set":true');
    expect(errors).toEqual([]);
  });
});
