// The admin's model settings form on the Settings page in Debian's Chromium (playwright-core)
// against a real Nexus on SQLite whose models start offline: the admin picks an OpenAI-compatible
// server (a fake provider on 127.0.0.1), types its key in a password field, tests the connection
// (a wrong key is reported with the provider's words), saves, and the models table shows the new
// model with no restart; the key never comes back to the page. The form is driven by its labels
// and the keyboard. Screenshot: test-artifacts/dashboard-model-settings.png.
import { randomBytes } from "node:crypto";
import { parseLlmConfig } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { kekFromBytes, openCopilot, resolveConfig } from "@anna-ai/nexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;
const KEY = "sk-local-model-browser-0123456789";

describe.skipIf(chromium.skip)(`model settings in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeProvider;

  beforeAll(async () => {
    const { distDir } = builtDashboard();
    fake = await startFakeProvider({ apiKey: KEY });
    nexus = await startTestNexus({
      dashboard: { distDir },
      copilot: (db) =>
        openCopilot({
          db,
          llm: parseLlmConfig({}),
          quota: resolveConfig({}).llmQuota,
          clock: Date.now,
          models: { kek: kekFromBytes(randomBytes(32), "test"), env: {} },
        }),
    });
  });
  afterAll(async () => {
    await nexus?.close();
    await fake?.close();
  });

  it("switches the models from offline to a local server, tested first", async () => {
    const { page, errors } = await openTestPage(browser());
    await page.goto(`${nexus.url}/`);
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("Email").fill("root@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("root@example.com").waitFor({ timeout: WAIT_MS });
    await nexus.makeAdmin("root@example.com");
    // The page read the person before they were made an admin.
    await page.goto(`${nexus.url}/settings`);

    const form = page.getByRole("form", { name: "Model settings" });
    await form.waitFor({ timeout: WAIT_MS });
    const base = form.getByRole("group", { name: "Chat and agent (the base model)" });
    await base.getByText("Now: offline offline").waitFor();
    // Keyboard only: focus the provider, choose, then Tab through the fields.
    await base.getByLabel("Provider").focus();
    await base.getByLabel("Provider").selectOption("openai-compatible");
    await page.keyboard.press("Tab");
    await page.keyboard.type(fake.baseUrl);
    await page.keyboard.press("Tab");
    const key = base.getByLabel(/^API key/);
    expect(await key.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await key.getAttribute("type")).toBe("password");
    await page.keyboard.type("sk-wrong-key-0000000");
    await page.keyboard.press("Tab");
    await page.keyboard.type("llama-local");

    await form.getByRole("button", { name: "Test connection" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor({ timeout: WAIT_MS });
    expect(await alert.textContent()).toContain("refused the API key");
    expect(await alert.textContent()).not.toContain("sk-wrong-key");

    await key.fill(KEY);
    fake.enqueue({ text: "OK" });
    await form.getByRole("button", { name: "Test connection" }).click();
    await form
      .getByRole("status")
      .getByText(/Connected: openai-compatible llama-local answered in \d+ ms/)
      .waitFor({ timeout: WAIT_MS });
    // Enter in a field submits the form: Save.
    await base.getByLabel("Model").press("Enter");
    await form.getByText("Saved. New calls use these settings.").waitFor({ timeout: WAIT_MS });
    await base.getByText("Now: openai-compatible llama-local").waitFor();
    await base.getByLabel("API key (a key is stored)").waitFor();
    expect(await key.inputValue()).toBe("");
    const models = page.getByRole("table", { name: "Models" });
    await models.getByRole("row", { name: /chat openai-compatible llama-local/ }).waitFor({
      timeout: WAIT_MS,
    });
    await form.getByText("Recent changes").click();
    await form
      .getByText(/by root@example\.com: .*provider \(unset\) → "openai-compatible"/)
      .waitFor();
    await screenshot(page, "dashboard-model-settings");

    const stored = await page.evaluate(async () =>
      (await fetch("/api/v1/super-admin/settings/models")).text(),
    );
    expect(stored).not.toContain(KEY);
    expect(await page.content()).not.toContain(KEY);
    expect(errors).toEqual([]);
  });
});
