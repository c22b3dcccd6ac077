// The inspector in Chromium against the ts-notes plugin: open the printed URL (the token becomes
// the cookie), fill a tool's generated form, invoke (and cancel one), and see the answer, its duration, the invoke
// and the plugin's storage call in the frame trace, the history's Re-run, and the storage panel
// (the plugin's rows, one edited there and read back by the plugin). A screenshot is
// kept under test-artifacts/.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { openTestPage, screenshot, useBrowser } from "../dev/browser.js";
import { example, tempDir } from "../executa-dev/helpers.js";
import { startInspector } from "./helpers.js";

const chromium = needs("chromium");
const NOTES_MAIN = path.join(example("ts-notes"), "dist/main.js");
const FORMS = fileURLToPath(new URL("fixtures/forms.mjs", import.meta.url));
const WAITS = fileURLToPath(new URL("fixtures/waits.mjs", import.meta.url));
const CREDS = fileURLToPath(new URL("fixtures/creds.mjs", import.meta.url));

describe.skipIf(chromium.skip)(`executa dev --ui in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();

  it("invokes a tool from its form and shows the result, the frames and the history", async () => {
    const ui = await startInspector([
      "--spec",
      `tool_id=notes,type=node,command="node ${NOTES_MAIN}",dir=${tempDir()}`,
    ]);
    const { page, errors } = await openTestPage(browser());
    const console: string[] = [];
    page.on("console", (m) => console.push(m.text()));
    await page.goto(ui.url);
    // The token left the address bar.
    expect(page.url()).toBe(`${ui.base}/`);
    await expect.poll(() => page.textContent("#state")).toBe("ready");
    expect(await page.textContent("#tool-id")).toBe("notes");

    await page.click('#tools button[data-tool="add_note"]');
    expect(await page.textContent("#form-title")).toBe("add_note");
    expect(await page.locator('.field[data-field="text"] .required').count()).toBe(1);

    // A wrong JSON value is caught by the form, named by field.
    await page.fill("#arg-tags", "not json");
    await page.click("#invoke");
    expect(await page.textContent("#form-errors")).toContain("tags: is not JSON");

    await page.fill("#arg-text", "from chromium");
    await page.fill("#arg-tags", '["web"]');
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result-status")).toBe("add_note: ok");
    expect(await page.textContent("#result")).toContain('"count": 1');
    expect(await page.textContent("#result-duration")).toMatch(/^\d+(\.\d)? ms$/);

    const invokeFrame = page.locator(
      '#trace .frame.out[data-method="invoke"][data-kind="request"]',
    );
    await expect.poll(() => invokeFrame.count()).toBeGreaterThan(0);
    await invokeFrame.last().locator("summary").click();
    expect(await invokeFrame.last().locator("pre").textContent()).toContain('"from chromium"');
    const reverse = page.locator("#trace .frame.reverse.in.request");
    await expect.poll(() => reverse.count()).toBeGreaterThan(0);
    expect(await reverse.first().getAttribute("data-method")).toMatch(/^storage\//);

    // Declared defaults are prefilled.
    await page.click('#tools button[data-tool="list_notes"]');
    expect(await page.inputValue("#arg-limit")).toBe("20");

    await expect.poll(() => page.locator("#history li").count()).toBe(1);
    await page.click("#history li .rerun");
    await expect.poll(() => page.textContent("#result")).toContain('"count": 2');
    await expect.poll(() => page.locator("#history li").count()).toBe(2);

    // The storage panel follows the plugin's writes: two notes and the stats record.
    const rows = page.locator("#storage-rows tr");
    await expect.poll(() => rows.count()).toBe(3);
    await page
      .locator("#storage-rows button", { hasText: /^notes\// })
      .first()
      .click();
    await expect.poll(() => page.inputValue("#storage-value")).toContain('"from chromium"');
    // Edited there, the plugin reads the new text.
    const edited = (await page.inputValue("#storage-value")).replace("from chromium", "edited");
    await page.fill("#storage-value", edited);
    await page.click("#storage-save");
    await expect.poll(() => page.textContent("#storage-etag")).toMatch(/^saved, etag /);
    await page.click('#tools button[data-tool="list_notes"]');
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result")).toContain('"edited"');
    // A value that is not JSON is refused on the page, before any request.
    await page.fill("#storage-value", "{not json");
    await page.click("#storage-save");
    expect(await page.textContent("#storage-error")).toContain("The value is not JSON");
    expect(await page.isVisible("#storage-error")).toBe(true);

    await screenshot(page, "executa-dev-inspector");
    expect(errors).toEqual([]);
    expect(console.filter((line) => /Content Security Policy|Refused/.test(line))).toEqual([]);
  });

  it("turns each kind of field into the JSON type the tool declares, and shows the plugin's stderr", async () => {
    const ui = await startInspector(["--spec", `tool_id=forms,type=node,command="node ${FORMS}"`]);
    const { page, errors } = await openTestPage(browser());
    await page.goto(ui.url);
    await expect.poll(() => page.textContent("#form-title")).toBe("echo_args");
    // Enums and booleans are selects; a required one offers no "(not set)".
    expect(await page.locator("#arg-mode option").allTextContents()).toEqual(["fast", "slow"]);
    expect(await page.locator("#arg-verbose option").allTextContents()).toEqual([
      "(not set)",
      "true",
      "false",
    ]);
    expect(await page.inputValue("#arg-ratio")).toBe("0.5");

    await page.click("#invoke");
    expect(await page.textContent("#form-errors")).toBe("count: required");
    await page.selectOption("#arg-mode", { label: "slow" });
    await page.fill("#arg-count", "3");
    await page.selectOption("#arg-verbose", { label: "true" });
    await page.fill("#arg-ids", "[1, 2]");
    await page.fill("#arg-filters", '{"tag": "x"}');
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result-status")).toBe("echo_args: ok");
    expect(JSON.parse((await page.textContent("#result")) ?? "")).toEqual({
      mode: "slow",
      count: 3,
      ratio: 0.5,
      verbose: true,
      ids: [1, 2],
      filters: { tag: "x" },
    });
    await expect.poll(() => page.textContent("#stderr")).toContain('echo_args got {"mode":"slow"');
    expect(errors).toEqual([]);
  });

  it("cancels a running invoke with the Cancel button", async () => {
    const ui = await startInspector(["--spec", `tool_id=waits,type=node,command="node ${WAITS}"`]);
    const { page, errors } = await openTestPage(browser());
    await page.goto(ui.url);
    await expect.poll(() => page.textContent("#form-title")).toBe("wait");
    expect(await page.isVisible("#cancel-invoke")).toBe(false);
    await page.click("#invoke");
    await expect.poll(() => page.isVisible("#cancel-invoke")).toBe(true);
    expect(await page.textContent("#result")).toBe("waiting for the plugin");
    await expect.poll(() => page.textContent("#stderr")).toContain("wait started");
    await page.click("#cancel-invoke");
    await expect.poll(() => page.textContent("#result-status")).toBe("wait: error -32000");
    expect(await page.textContent("#result")).toContain("was cancelled");
    expect(await page.isVisible("#cancel-invoke")).toBe(false);
    expect(await page.isDisabled("#invoke")).toBe(false);
    await expect
      .poll(() => page.textContent("#stderr"))
      .toContain("wait cancelled: cancelled from the inspector");
    expect(errors).toEqual([]);
  });

  it("switches sampling to a mock-answer file from the services form, and saves a call as one", async () => {
    const ui = await startInspector([
      "--spec",
      `tool_id=notes,type=node,command="node ${NOTES_MAIN}",dir=${tempDir()}`,
    ]);
    const fixture = path.join(example("ts-notes"), "fixtures/sampling.jsonl");
    const { page, errors } = await openTestPage(browser());
    await page.goto(ui.url);
    await expect.poll(() => page.textContent("#state")).toBe("ready");
    expect(await page.textContent("#services")).toContain("sampling=off");
    expect(await page.locator("#service-family option").allTextContents()).toEqual([
      "sampling",
      "agent",
      "image",
      "upload",
      "embeddings",
      "web",
    ]);
    expect(await page.locator("#service-mode option").allTextContents()).toEqual([
      "to a mock-answer file",
      "to your Nexus (the saved account)",
      "off",
      "back to how the run started",
    ]);
    // To your Nexus: the field asks for the app instead; no account here, so it is refused.
    await page.selectOption("#service-mode", "real");
    expect(await page.getAttribute("#service-fixture", "placeholder")).toBe("app slug (optional)");
    await page.click("#service-apply");
    await expect
      .poll(() => page.textContent("#service-result"))
      .toMatch(/sampling stays as it was: not logged in/);
    await page.selectOption("#service-mode", "mock");
    // A file that is not there is refused, and nothing changes.
    await page.fill("#service-fixture", "/nonexistent/sampling.jsonl");
    await page.click("#service-apply");
    await expect.poll(() => page.textContent("#service-result")).toMatch(/stays as it was/);
    await page.fill("#service-fixture", fixture);
    await page.click("#service-apply");
    await expect
      .poll(() => page.textContent("#service-result"))
      .toBe(`sampling: mock (${fixture}, switched)`);
    expect(await page.textContent("#services")).toContain("sampling=mock");

    await page.click('#tools button[data-tool="add_note"]');
    await page.fill("#arg-text", "buy milk");
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result-status")).toBe("add_note: ok");
    await page.click('#tools button[data-tool="summarize_notes"]');
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result")).toContain("milk is on the list");
    // The summary's host calls (the sampling answer above) as a mock-answer file.
    await page.locator("#history li", { hasText: "summarize_notes" }).locator(".save-mock").click();
    await expect
      .poll(() => page.locator("#history li", { hasText: "summarize_notes" }).textContent())
      .toMatch(/\d+ host calls saved to .*\.anna\/inspector\/mocks\/summarize_notes-1\.jsonl/);
    expect(errors).toEqual([]);
  });

  it("sets a declared credential from the credentials panel", async () => {
    const ui = await startInspector(["--spec", `tool_id=creds,type=node,command="node ${CREDS}"`]);
    const { page, errors } = await openTestPage(browser());
    await page.goto(ui.url);
    const row = page.locator('#credential-rows tr[data-credential="CREDS_TOKEN"]');
    await expect.poll(() => row.textContent()).toContain("not set");
    await row.locator("input").fill("tok-from-the-page");
    await row.locator(".set").click();
    await expect.poll(() => row.textContent()).toContain("set (page)");
    await page.click("#invoke");
    await expect.poll(() => page.textContent("#result")).toContain('"configured": true');
    expect(await page.content()).not.toContain("tok-from-the-page");
    await page.locator('#credential-rows tr[data-credential="CREDS_TOKEN"] .clear').click();
    await expect
      .poll(() => page.locator('#credential-rows tr[data-credential="CREDS_TOKEN"]').textContent())
      .toContain("not set");
    expect(errors).toEqual([]);
  });
});
