// Settings → Connected accounts in Debian's Chromium (playwright-core) against a real Nexus on
// SQLite and a real OAuth provider on 127.0.0.1 (the fake one the Nexus tests use): a person
// picks the scopes, presses Connect, goes through the provider and lands back on the page with
// the account listed as the default; a second account connects beside it, becomes the default,
// and the first is disconnected (revoked at the provider). No token ever reaches the page.
// Screenshot: test-artifacts/dashboard-connected-accounts.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import {
  type FakeOAuthProvider,
  fakeProviderEnv,
  startFakeOAuthProvider,
} from "../../nexus/test/helpers/fake-oauth-provider.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;

describe.skipIf(chromium.skip)(`connected accounts in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeOAuthProvider;

  beforeAll(async () => {
    const { distDir } = builtDashboard();
    fake = await startFakeOAuthProvider();
    nexus = await startTestNexus({
      dashboard: { distDir },
      oauthEnv: fakeProviderEnv(fake, {
        id: "acme",
        name: "Acme Mail",
        scopes: "profile mail.read mail.send",
        credentialNames: "ACME_ACCESS_TOKEN",
      }),
    });
  });
  afterAll(async () => {
    await nexus?.close();
    await fake?.close();
  });

  it("connects two accounts through the provider, switches the default, disconnects one", async () => {
    const { page, errors } = await openTestPage(browser());
    await page.goto(`${nexus.url}/`);
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("ada@example.com").waitFor({ timeout: WAIT_MS });

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "manage connected accounts" }).click();
    const acme = page.getByRole("region", { name: "Acme Mail" });
    await acme.getByText("No Acme Mail account connected.").waitFor({ timeout: WAIT_MS });

    // Least privilege: no sending.
    await acme.getByRole("checkbox", { name: "mail.send" }).uncheck();
    fake.nextAccount = { sub: "acct-work", email: "ada@work.example", name: "Ada at work" };
    await acme.getByRole("link", { name: "Connect Acme Mail account" }).click();
    await page.getByText("Connected acme account acct-work.").waitFor({ timeout: WAIT_MS });
    const work = acme.getByRole("row", { name: /Ada at work/ });
    await work.getByText("default").waitFor();
    await work.getByText("profile mail.read", { exact: true }).waitFor();

    fake.nextAccount = { sub: "acct-home", email: "ada@home.example", name: "Ada at home" };
    await acme.getByRole("link", { name: "Connect another Acme Mail account" }).click();
    await page.getByText("Connected acme account acct-home.").waitFor({ timeout: WAIT_MS });
    await acme
      .getByRole("button", { name: "Make Ada at home the default Acme Mail account" })
      .click();
    await acme
      .getByRole("row", { name: /Ada at home/ })
      .getByText("default")
      .waitFor();
    await screenshot(page, "dashboard-connected-accounts");

    await acme.getByRole("button", { name: "Disconnect Ada at work" }).click();
    await work.waitFor({ state: "detached", timeout: WAIT_MS });
    expect(fake.counts.revoke).toBe(1);
    expect(fake.accessTokenOf("acct-work")).toBeUndefined();

    const html = await page.content();
    expect(html).not.toContain(fake.accessTokenOf("acct-home")!);
    for (const rt of fake.refreshTokens()) expect(html).not.toContain(rt);
    expect(errors).toEqual([]);
  });
});
