// The /device approval page in Debian's Chromium (playwright-core): its own script signs in and
// approves under the page's CSP, and the CLI's poll then gets the PAT.
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { chromium } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { hashPassword, TEST_SCRYPT } from "../src/auth/password.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness } from "./helpers/harness.js";
import { CHROMIUM, needs } from "../../../tests/support/toolchains.js";

useDialectCleanup();

const chromiumNeeds = needs("chromium");
const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url));
const WAIT_MS = 10_000;

describe.skipIf(chromiumNeeds.skip)(
  `device approval page in Chromium${chromiumNeeds.reason}`,
  () => {
    it("signs in and approves from the page, then approves again while signed in", async () => {
      const h = harness(await DIALECTS[0]!.open());
      await h.stores.users.create(
        {
          email: "web@example.com",
          passwordHash: await hashPassword("correct horse battery", TEST_SCRYPT),
          isVerified: true,
        },
        h.clock.now(),
      );
      const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
      onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
      await new Promise<void>((r) =>
        server.listening ? r() : server.once("listening", () => r()),
      );
      const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const startLogin = async () =>
        (await (
          await fetch(`${host}/api/v1/anna-apps/dev/login/start`, {
            method: "POST",
            headers: { "content-type": "application/json" },
          })
        ).json()) as { device_code: string; user_code: string; verification_uri_complete: string };
      const poll = (device_code: string) =>
        fetch(`${host}/api/v1/anna-apps/dev/login/poll`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ device_code }),
        });

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      });
      onTestFinished(() => browser.close());
      const page = await (
        await browser.newContext({ viewport: { width: 800, height: 700 } })
      ).newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

      const first = await startLogin();
      await page.goto(`${host}${first.verification_uri_complete}`);
      expect(await page.inputValue('input[name="user_code"]')).toBe(first.user_code);
      await page.fill('input[name="email"]', "web@example.com");
      await page.fill('input[name="password"]', "correct horse battery");
      await page.click('button[type="submit"]');
      await page.locator("#msg", { hasText: "Approved" }).waitFor({ timeout: WAIT_MS });
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}nexus-device-approved.png` });
      expect((await poll(first.device_code)).status).toBe(200);

      const second = await startLogin();
      await page.goto(`${host}${second.verification_uri_complete}`);
      await page.locator("text=Signed in as").waitFor({ timeout: WAIT_MS });
      expect(await page.locator('input[name="password"]').count()).toBe(0);
      await page.click('button[type="submit"]');
      await page.locator("#msg", { hasText: "Approved" }).waitFor({ timeout: WAIT_MS });
      expect((await poll(second.device_code)).status).toBe(200);

      // a stale code shows the server's message
      await page.goto(`${host}${second.verification_uri_complete}`);
      await page.click('button[type="submit"]');
      await page
        .locator("#msg", { hasText: "expired or was already used" })
        .waitFor({ timeout: WAIT_MS });
      expect(errors.filter((e) => !/status of 410/.test(e))).toEqual([]);
    });
  },
);
