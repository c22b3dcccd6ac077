// Focus Flow in Chromium under `anna-app dev`: the dashboard opens, the app's sandboxed iframe
// starts a session on its Python executa and finishes it, the frame title follows, the session
// survives a reload through storage, a refused start is shown to the user, the session is
// shared to the chat, the history view opens with the log, and the session's
// recording passes `anna-app fixture verify`. A screenshot of the dashboard is kept as
// test-artifacts/focus-flow-dashboard.png.
//
// FOCUS_FLOW_UPDATE_FIXTURE=1 also copies the recording to fixtures/happy-path.jsonl (how that
// file was made).
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { startDevServer } from "../../../../packages/cli/src/dev/dev-server.js";
import { openPage, screenshot } from "../../../../packages/cli/test/dev/browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { jsonLine, runCli } from "../../../../packages/cli/test/executa-dev/helpers.js";
import { HAPPY_PATH, MANIFEST, TOOL_ID } from "./app.js";

/** Upper bound for one step (a cold python3 start included); steps take milliseconds. */
const STEP_TIMEOUT_MS = 10_000;
const TASK = "Browser focus";

/** Waits until the element holds the text; fails naming what was expected. */
async function waitForText(scope: Page | FrameLocator, selector: string, text: string) {
  await scope.locator(selector, { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
}

const browserAndPython = needs("chromium", "python3");

describe.skipIf(browserAndPython.skip)(
  `Focus Flow in anna-app dev${browserAndPython.reason}`,
  () => {
    it("runs a session on the executa from the sandboxed window, with storage, titles and errors", async () => {
      const scratch = mkdtempSync(path.join(tmpdir(), "focus-flow-"));
      onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
      const recording = path.join(scratch, "session.jsonl");
      const server = await startDevServer({
        manifestPath: MANIFEST,
        port: 0,
        watch: false,
        record: recording,
      });
      onTestFinished(() => server.close());
      const wid = server.window.window_uuid;

      const page = await openPage();
      await page.goto(server.url);
      const iframe = page.locator("iframe").first();
      expect(await iframe.getAttribute("sandbox")).not.toContain("allow-same-origin");
      const app = page.frameLocator("iframe").first();

      // Loaded: the seeded log, and today's summary from the executa's `stats`.
      await waitForText(app, "#summary", "Today: No sessions yet.");
      await waitForText(app, "#log li", "Review pull requests");

      // A refused start: the executa's own words, shown as an error.
      await app.locator("#task").fill("   ");
      await app.locator("#start").click();
      await waitForText(app, "#error", "Name the task you want to focus on (it is empty).");
      expect(await app.locator("#error").getAttribute("data-code")).toBe("tool_failed");

      // Start: the executa answers, the frame title shows the running session.
      await app.locator("#task").fill(TASK);
      await app.locator("#start").click();
      await waitForText(app, "#message", `Focus on “${TASK}” for 25 min.`);
      expect(await app.locator("#error").isHidden()).toBe(true);
      await waitForText(page, `[data-wid="${wid}"]`, `▶ 25 min left · ${TASK}`);
      expect(await app.locator("#start-form").isHidden()).toBe(true);
      expect(await app.locator("#finish").isVisible()).toBe(true);

      // Finish early: logged, and the title sums up the day.
      await app.locator("#finish").click();
      await waitForText(app, "#message", `Stopped “${TASK}”`);
      await waitForText(app, "#log li:first-child", TASK);
      await waitForText(page, `[data-wid="${wid}"]`, "✓ 1 session · 0 min focused · 0 completed");
      await waitForText(app, "#summary", "Today: 1 session");
      await screenshot(page, "focus-flow-dashboard");

      // Share: chat.write_message under the manifest's chat grant.
      await app.locator("#share").click();
      await waitForText(app, "#message", "Shared to the conversation.");

      // History: window.open_view opens the second view with the log as its entry payload.
      await app.locator("#open-history").click();
      await waitForText(page.frameLocator("iframe").nth(1), "#history li:first-child", TASK);

      // Storage round trip: a reloaded dashboard's window reads the log back.
      await page.reload();
      await waitForText(page.frameLocator("iframe").first(), "#log li:first-child", TASK);
      await waitForText(page, `[data-wid="${wid}"]`, "✓ 1 session");

      const calls = server.panel.calls.map((c) => `${c.ns}.${c.method}:${c.outcome}`);
      expect(calls).toEqual(
        expect.arrayContaining([
          "window.hello:allowed",
          "prefs.get:allowed",
          "storage.get:allowed",
          "tools.invoke:error",
          "tools.invoke:allowed",
          "storage.set:allowed",
          "storage.delete:allowed",
          "window.set_title:allowed",
          "chat.write_message:allowed",
        ]),
      );
      const invoked = server.panel.calls
        .filter((c) => c.ns === "tools" && c.method === "invoke")
        .map((c) => (c.args as { tool_id: string; method: string }).method);
      expect(invoked).toEqual(
        expect.arrayContaining(["stats", "start_session", "complete_session"]),
      );
      expect(server.executaStates()).toMatchObject([{ tool_id: TOOL_ID, state: "ready" }]);

      // The recording of this session passes `fixture verify`.
      await server.close();
      const verified = await runCli(["fixture", "verify", recording, "--json"]);
      expect(jsonLine(verified), verified.stderr).toMatchObject({ ok: true, errors: 0 });
      expect(verified.code).toBe(0);
      if (process.env["FOCUS_FLOW_UPDATE_FIXTURE"] === "1") copyFileSync(recording, HAPPY_PATH);
    }, 40_000);
  },
);
