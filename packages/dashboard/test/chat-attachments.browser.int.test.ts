// Attachments on the chat page in Debian's Chromium (playwright-core) against a real Nexus on
// SQLite with a filesystem blob store, the model a fake OpenAI-compatible server: a CSV chosen
// with the Attach button and a note dropped on the composer show as chips, one is removed, the
// message goes with the other, its bubble shows the file; the next question's model calls
// sheet_read on it and the tool card shows the rows. Screenshots in test-artifacts/.
import { attachmentTools } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { ChatAttachments, createChat, nullLogger, systemClock } from "@anna-ai/nexus";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";
import { fakeModelGateway } from "./fake-model.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;
const CSV = "city,visitors\nLisbon,120\nOslo,85\nKyoto,240\n";

describe.skipIf(chromium.skip)(`chat attachments in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await startFakeProvider();
    const gateway = fakeModelGateway(fake);
    nexus = await startTestNexus({
      dashboard: builtDashboard(),
      chat: (db, { blobs }) => {
        const attachments = new ChatAttachments(db, blobs, () => systemClock.now());
        return createChat({
          db,
          gateway,
          clock: systemClock,
          logger: nullLogger,
          pollMs: 50,
          attachments,
          toolsFor: () => attachmentTools({ attachment: attachments.lookup }),
          streamLimits: { keepaliveMs: 1000 },
        });
      },
    });
  });
  afterAll(async () => {
    await nexus?.close();
    await fake?.close();
  });

  async function signUp(page: Page, email: string) {
    await page.goto(`${nexus.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText(email).waitFor({ timeout: WAIT_MS });
  }

  /** Drops a file on the composer the way a file manager's drag does (a DataTransfer of Files). */
  async function dropFile(page: Page, name: string, type: string, text: string) {
    // A string, evaluated in the page: DataTransfer is the browser's, not Node's.
    const transfer = await page.evaluateHandle(
      `(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} })); return dt; })()`,
    );
    const composer = page.locator("form.composer");
    await composer.dispatchEvent("dragover", { dataTransfer: transfer });
    await composer.dispatchEvent("drop", { dataTransfer: transfer });
  }

  it("attaches a CSV, sends it, and the model's sheet_read shows its rows", async () => {
    const { page, errors } = await openTestPage(browser());
    await signUp(page, "sheets@example.com");
    await page.getByRole("link", { name: "Anna", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Chat" }).waitFor({ timeout: WAIT_MS });

    await page.getByLabel("Attach files").setInputFiles({
      name: "visitors.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(CSV),
    });
    await dropFile(page, "draft.txt", "text/plain", "not this one");
    const chips = page.getByRole("list", { name: "Files to send" });
    await chips.getByText("visitors.csv").waitFor({ timeout: WAIT_MS });
    await chips.getByText("draft.txt").waitFor();
    await screenshot(page, "chat-attachment-chips");
    await page.getByRole("button", { name: "Remove draft.txt" }).click();
    expect(await chips.getByRole("listitem").allTextContents()).toEqual([
      expect.stringContaining("visitors.csv"),
    ]);

    fake.enqueue({ text: "I have your sheet." });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("Here are the visitor numbers");
    await page.keyboard.press("Enter");
    await page.getByText("I have your sheet.").waitFor({ timeout: WAIT_MS });
    const sent = page.getByRole("list", { name: "Attached files" });
    await sent.getByText("visitors.csv").waitFor({ timeout: WAIT_MS });
    expect(await page.getByRole("list", { name: "Files to send" }).count()).toBe(0);

    // The prompt named the file and its id; the next question's model reads it by that id.
    const system = JSON.stringify(fake.requests.at(-1)?.body);
    const id = /attachment_id: ([0-9a-f-]{36})/.exec(system)?.[1];
    expect(system).toContain("visitors.csv");
    expect(id).toBeDefined();
    fake.enqueue(
      { toolCalls: [{ name: "sheet_read", args: { attachment_id: id } }] },
      { text: "Kyoto had the most visitors." },
    );
    await box.fill("Which city had the most?");
    await page.keyboard.press("Enter");
    await page.getByText("Kyoto had the most visitors.").waitFor({ timeout: WAIT_MS });
    const card = page.getByRole("group", { name: "Tool call sheet_read" });
    await card.getByText("done").waitFor();
    await card.locator("summary").click();
    await card.getByText(/"Kyoto"/).waitFor();
    await card.getByText(/"240"/).waitFor();
    await screenshot(page, "chat-attachment-sheet-read");

    // Read back after a reload: the message still shows its file.
    await page.reload();
    await page
      .getByRole("list", { name: "Attached files" })
      .getByText("visitors.csv")
      .waitFor({ timeout: WAIT_MS });
    expect(errors).toEqual([]);
  }, 120_000);
});
