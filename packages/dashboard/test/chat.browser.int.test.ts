// The chat page in Debian's Chromium (playwright-core) against a real Nexus on SQLite whose chat
// turns run on a fake OpenAI-compatible model server (real HTTP, real wire format): sign up,
// `#` and `@` completion from what the person installed, a first message that starts a
// conversation, the answer streaming in as Markdown without moving the page, a turn still
// running across a reload (the stream reopens after the last frame seen), cancel, retry, tool
// calls as cards (a result and an error), a failed turn's error line, and the stored
// conversation read back after a reload. Screenshots go to test-artifacts/chat-*.png.
import { type AgentTool } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { createChat, nullLogger, systemClock } from "@anna-ai/nexus";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../cli/test/account/nexus-server.js";
import { openTestPage, screenshot, useBrowser } from "../../cli/test/dev/browser.js";
import { needs } from "../../../tests/support/toolchains.js";
import { builtDashboard } from "./built-dashboard.js";
import { fakeModelGateway } from "./fake-model.js";
import { publisher } from "./publish-app.js";

const chromium = needs("chromium");
const PASSWORD = "correct horse battery";
const WAIT_MS = 10_000;

/** Tools the chat offers every turn: one that answers, one that reports an error. */
const TOOLS: AgentTool[] = [
  {
    name: "word_count",
    description: "Counts the words of a text",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    source: { kind: "platform", family: "test" },
    execute: (input) =>
      Promise.resolve({
        output: { words: String((input as { text: string }).text).split(/\s+/).length },
      }),
  },
  {
    name: "flaky_lookup",
    description: "Looks a word up, and fails",
    parameters: { type: "object", properties: { word: { type: "string" } } },
    source: { kind: "platform", family: "test" },
    execute: () => Promise.resolve({ output: { error: "dictionary offline" }, isError: true }),
  },
];

describe.skipIf(chromium.skip)(`the chat page in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let nexus: TestNexus;
  let fake: FakeProvider;
  /** The executa Quick Notes bundles, which `@` completes. */
  let toolId: string;

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
          toolsFor: () => TOOLS,
          streamLimits: { keepaliveMs: 1000 },
        }),
    });
    const apps = await publisher(nexus, "dev@example.com", "admin@example.com");
    toolId = await apps.tool("note-search", "Note Search");
    await apps.app({
      slug: "quick-notes",
      name: "Quick Notes",
      tagline: "Notes that summarise themselves",
      category: "productivity",
      description: "Write notes; ask for a summary.",
      manifest: { schema: 1, required_executas: [{ tool_id: toolId }] },
      publish: true,
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

  /** What the browser's session cookie may do over plain HTTP (a same-origin write). */
  async function asPage(page: Page, method: string, p: string): Promise<unknown> {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${nexus.url}/api/v1${p}`, {
      method,
      headers: { cookie, origin: nexus.url },
    });
    expect(res.ok, `${method} ${p}: ${res.status}`).toBe(true);
    return res.json();
  }

  it("chats: mentions, Markdown streaming, reload mid-turn, cancel, retry, tool cards, a failure", async () => {
    const { page, errors } = await openTestPage(browser());
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text()))
        errors.push(m.text());
    });
    await signUp(page, "chatter@example.com");
    await asPage(page, "POST", "/store/apps/quick-notes/install");
    const executas = (await asPage(page, "GET", "/me/executas")) as { tool_id: string }[];
    expect(executas.map((e) => e.tool_id)).toEqual([toolId]);

    // Signed in, the home page is the chat.
    await page.getByRole("link", { name: "Anna", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Chat" }).waitFor({ timeout: WAIT_MS });
    const box = page.getByRole("textbox", { name: "Message" });

    // `#` lists the installed apps; the textarea points at the active option.
    await box.click();
    await box.pressSequentially("Ask #qu");
    const apps = page.getByRole("listbox", { name: "Your apps" });
    await apps.waitFor({ timeout: WAIT_MS });
    const option = apps.getByRole("option", { name: /#quick-notes/ });
    expect(await option.getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await option.getAttribute("id"));
    await screenshot(page, "chat-mentions");
    await page.keyboard.press("Enter");
    await apps.waitFor({ state: "detached" });
    expect(await box.inputValue()).toBe("Ask #quick-notes ");
    // `@` lists the executas; Escape closes the list and leaves the text alone.
    await box.pressSequentially("@note");
    const tools = page.getByRole("listbox", { name: "Your executas" });
    const toolOption = tools.getByRole("option", { name: /Note Search/ });
    await toolOption.waitFor({ timeout: WAIT_MS });
    await page.keyboard.press("Escape");
    await tools.waitFor({ state: "detached" });
    expect(await box.inputValue()).toBe("Ask #quick-notes @note");
    // Typing on reopens it; Tab takes the option (its tool id, which the server resolves).
    await box.pressSequentially(" ");
    await box.press("Backspace");
    await toolOption.waitFor({ timeout: WAIT_MS });
    await page.keyboard.press("Tab");
    expect(await box.inputValue()).toBe(`Ask #quick-notes @${toolId} `);

    // The first message starts a conversation; the answer streams in as Markdown.
    await box.fill("");
    fake.enqueue({
      text: [
        "## Plan\n\n",
        "- **first** step\n",
        "- second step\n\n",
        "See [the docs](https://example.com/docs). <b>raw</b> ",
        "[bad](javascript:alert(1))",
      ],
    });
    await box.fill("Make me a plan");
    await page.keyboard.press("Shift+Enter");
    await box.pressSequentially("please");
    expect(await box.inputValue()).toBe("Make me a plan\nplease");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/, { timeout: WAIT_MS });
    const answer = page.getByRole("region", { name: "Anna's answer" });
    await answer.getByRole("heading", { name: "Plan" }).waitFor({ timeout: WAIT_MS });
    await answer.getByRole("link", { name: "the docs" }).waitFor({ timeout: WAIT_MS });
    expect(await answer.getAttribute("aria-live")).toBe("polite");
    expect(await answer.locator("strong").textContent()).toBe("first");
    expect(await answer.getByRole("listitem").count()).toBe(2);
    const docs = answer.getByRole("link", { name: "the docs" });
    expect(await docs.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await docs.getAttribute("target")).toBe("_blank");
    // Raw HTML is not rendered and a javascript: link goes nowhere.
    expect(await answer.locator("b").count()).toBe(0);
    await answer.getByText("bad", { exact: true }).waitFor();
    expect(await answer.getByRole("link", { name: "bad" }).count()).toBe(0);
    await answer.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: WAIT_MS });
    const title = page.getByRole("heading", { level: 1 });
    // The server names the conversation after the first message's first line.
    expect(await title.textContent()).toBe("Make me a plan");
    await page.locator(".bubble.user").getByText("Make me a plan\nplease").waitFor();
    await screenshot(page, "chat-markdown");

    // A turn that is still running when the page reloads continues where it was.
    // The answer grows inside the log: the composer stays where it was and the page never
    // grows a scrollbar of its own.
    fake.enqueue({ text: ["Thinking ", "it over"], stall: true });
    await box.fill("Think slowly");
    const boxBefore = await box.boundingBox();
    const pageHeight = "document.scrollingElement.scrollHeight";
    const heightBefore = await page.evaluate(pageHeight);
    await page.keyboard.press("Enter");
    const live = page.getByRole("region", { name: "Anna's answer" });
    await live.getByText("Thinking it over").waitFor({ timeout: WAIT_MS });
    expect(await box.boundingBox()).toEqual(boxBefore);
    expect(await page.evaluate(pageHeight)).toBe(heightBefore);
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    expect(await live.getAttribute("aria-busy")).toBe("true");
    const resumed = page.waitForRequest(/\/api\/v1\/chat\/turns\/[^/]+\/events\?after=\d+$/, {
      timeout: WAIT_MS,
    });
    await page.reload();
    const after = Number(new URL((await resumed).url()).searchParams.get("after"));
    // turn.started, step.started and the two deltas were seen before the reload.
    expect(after).toBeGreaterThanOrEqual(4);
    await live.getByText("Thinking it over").waitFor({ timeout: WAIT_MS });
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("Cancelled.").waitFor({ timeout: WAIT_MS });
    await fake.waitForStalledDisconnect(WAIT_MS);
    await screenshot(page, "chat-cancelled");

    // Retry sends the cancelled turn's text again, as a new turn.
    fake.enqueue({ text: "Here it is, *quickly*." });
    await page.getByRole("button", { name: "Retry: Think slowly" }).click();
    await live.locator("em").getByText("quickly").waitFor({ timeout: WAIT_MS });
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent.match(/Think slowly/g)?.length).toBe(2);

    // Tool calls show as cards, collapsed, with their result or error and how long they took.
    fake.enqueue(
      {
        toolCalls: [
          { name: "word_count", args: { text: "one two three" } },
          { name: "flaky_lookup", args: { word: "zyzzyva" } },
        ],
      },
      { text: "Three words; the dictionary is offline." },
    );
    await box.fill("Count and look up");
    await page.keyboard.press("Enter");
    await live.getByText("Three words; the dictionary is offline.").waitFor({ timeout: WAIT_MS });
    const count = live.getByRole("group", { name: "Tool call word_count" });
    const lookup = live.getByRole("group", { name: "Tool call flaky_lookup" });
    expect(await count.getAttribute("open")).toBeNull();
    await count.getByText("done").waitFor();
    await count.getByText(/^\d+ ms$/).waitFor();
    await lookup.getByText("error", { exact: true }).waitFor();
    await count.locator("summary").click();
    await count.getByText('"text": "one two three"').waitFor();
    await count.getByText('"words": 3').waitFor();
    await lookup.locator("summary").click();
    await lookup.getByRole("heading", { name: "Error" }).waitFor();
    await lookup.getByText('"error": "dictionary offline"').waitFor();
    await screenshot(page, "chat-tool-cards");

    // A failed turn says why, and offers Retry.
    fake.enqueue({ error: { status: 400, message: "the model refused this request" } });
    await box.fill("Fail please");
    await page.keyboard.press("Enter");
    const failure = page.getByRole("alert").filter({ hasText: "This turn failed" });
    await failure.waitFor({ timeout: WAIT_MS });
    expect(await failure.textContent()).toMatch(/This turn failed: .*\S/);
    await page.getByRole("button", { name: "Retry: Fail please" }).waitFor();

    // Read back after a reload: every turn, the tool cards, the failure and its Retry.
    await page.reload();
    await page.getByRole("button", { name: "Retry: Fail please" }).waitFor({ timeout: WAIT_MS });
    await page.getByText(/This turn failed: .*\S/).waitFor();
    await page.getByRole("button", { name: "Retry: Think slowly" }).waitFor();
    await page.getByRole("heading", { name: "Plan", exact: true }).waitFor();
    await page.getByRole("group", { name: "Tool call word_count" }).waitFor();
    expect(await page.getByText("Cancelled.").count()).toBe(1);

    // The list is newest first; a new conversation goes to its top.
    const list = page.getByRole("navigation", { name: "Conversations" });
    await page.getByRole("button", { name: "New conversation" }).click();
    await page.getByRole("heading", { level: 1, name: "New conversation" }).waitFor({
      timeout: WAIT_MS,
    });
    await expect
      .poll(() => list.getByRole("link").allTextContents(), { timeout: WAIT_MS })
      .toEqual([
        expect.stringMatching(/^New conversation/),
        expect.stringMatching(/^Make me a plan/),
      ]);
    await screenshot(page, "chat-conversations");
    expect(errors).toEqual([]);
  }, 120_000);
});
