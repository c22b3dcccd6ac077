// The /verify-email page in Debian's Chromium (playwright-core): opening the mailed link alone
// verifies nothing; the page's own script, under its CSP, posts the token when the button is
// pressed, and a second press shows the server's "already used".
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { chromium } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { fileOutboxMailSender } from "../src/mail/mail-sender.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness } from "./helpers/harness.js";
import { CHROMIUM, needs } from "../../../tests/support/toolchains.js";

useDialectCleanup();

const chromiumNeeds = needs("chromium");
const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url));
const WAIT_MS = 10_000;

describe.skipIf(chromiumNeeds.skip)(
  `email verification page in Chromium${chromiumNeeds.reason}`,
  () => {
    it("verifies on the button press only, then says the link was used", async () => {
      const outbox = mkdtempSync(join(tmpdir(), "anna-nexus-outbox-"));
      onTestFinished(() => rmSync(outbox, { recursive: true, force: true }));
      const h = harness(await DIALECTS[0]!.open(), {}, { mail: fileOutboxMailSender(outbox) });
      const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
      onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
      await new Promise<void>((r) =>
        server.listening ? r() : server.once("listening", () => r()),
      );
      const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const signup = await fetch(`${host}/api/v1/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "web@example.com", password: "correct horse battery" }),
      });
      expect(signup.status).toBe(201);
      const [file] = readdirSync(outbox).filter((f) => f.endsWith(".json"));
      const { text } = JSON.parse(readFileSync(join(outbox, file!), "utf8")) as { text: string };
      const link = /(http:\/\/\S+\/verify-email\?token=\S+)/.exec(text)![1]!;
      expect(link.startsWith(`${host}/verify-email?token=`)).toBe(true);
      const verified = async () =>
        (await h.stores.users.findCredentials("web@example.com"))!.user.isVerified;

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      });
      onTestFinished(() => browser.close());
      const page = await (
        await browser.newContext({ viewport: { width: 800, height: 500 } })
      ).newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

      await page.goto(link);
      await page.locator("text=Verify my email address").waitFor({ timeout: WAIT_MS });
      expect(await verified()).toBe(false);
      await page.click('button[type="submit"]');
      await page
        .locator("#msg", { hasText: "web@example.com is verified" })
        .waitFor({ timeout: WAIT_MS });
      expect(await verified()).toBe(true);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}nexus-email-verified.png` });

      await page.click('button[type="submit"]');
      await page.locator("#msg", { hasText: "already used" }).waitFor({ timeout: WAIT_MS });
      expect(errors.filter((e) => !/status of 410/.test(e))).toEqual([]);
    }, 60_000);
  },
);
