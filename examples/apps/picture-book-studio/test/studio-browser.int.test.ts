// Picture Book Studio in Chromium: `anna-app dev --mock-llm fixtures/llm.jsonl` (in-process, port
// 0), the dashboard opened by playwright-core, the app driven inside its sandboxed iframe. The
// story streams in token by token (llm.stream), the storyteller executa titles it through reverse
// sampling, the picture shows (image.generate), the editor answers (agent session), a refused
// illustration shows its code — and the session's recording passes `fixture verify`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { openPage, screenshot } from "../../../../packages/cli/test/dev/browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { startDevServer } from "../../../../packages/cli/src/dev/dev-server.js";
import { readRecordingFile } from "../../../../packages/cli/src/fixture/read-fixture.js";

const APP = path.resolve(fileURLToPath(import.meta.url), "../..");
/** The fixture's answers (fixtures/llm.jsonl). */
const STORY_START = "Pip was a little fox who hummed only when nobody was listening.";
const TITLE = "Pip and the Night Owls";
const EDITOR_START = "Lovely rhythm! Two ideas:";
/** Each wait for the app; the whole drive takes a few seconds. */
const STEP_TIMEOUT_MS = 10_000;

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(
  `picture-book-studio in anna-app dev (Chromium)${chromium.reason}`,
  () => {
    it("streams the story, titles it, shows the picture, asks the editor and shows a refusal", async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "picture-book-studio-"));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const record = path.join(dir, "session.jsonl");
      const server = await startDevServer({
        manifestPath: path.join(APP, "manifest.json"),
        mockLlm: path.join(APP, "fixtures/llm.jsonl"),
        port: 0,
        watch: false,
        record,
      });
      onTestFinished(() => server.close());

      const page = await openPage();
      await page.goto(server.url);
      const app = page.frameLocator("iframe").first();
      await app.locator('#status[data-state="ready"]').waitFor({ timeout: STEP_TIMEOUT_MS });

      await app.locator("#make").click();
      await app.locator('#book[data-state="done"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      const story = app.locator("#story");
      expect(await story.textContent()).toMatch(new RegExp(`^${STORY_START}`));
      // One DOM update per model_token frame: the text grew word by word, not in one piece.
      expect(Number(await story.getAttribute("data-tokens"))).toBeGreaterThan(20);
      expect(await app.locator("#title").textContent()).toBe(TITLE);
      expect(await app.locator("#blurb").textContent()).toContain("shy little fox");
      const picture = app.locator("#picture");
      expect(await picture.isVisible()).toBe(true);
      // The decoded PNG is the fixture's 240×180 picture (no DOM types here: tests compile for Node).
      const naturalWidth = await picture.evaluate(
        (img) => (img as { naturalWidth?: number }).naturalWidth,
      );
      expect(naturalWidth).toBe(240);

      await app.locator("#ask").click();
      await app.locator('#editor[data-state="done"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      expect(await app.locator("#editor").textContent()).toMatch(new RegExp(`^${EDITOR_START}`));
      await screenshot(page, "picture-book-studio");

      await app.locator("#idea").fill("a photorealistic fox");
      await app.locator("#make").click();
      await app.locator('#book[data-state="failed"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      expect(await app.locator("#error").textContent()).toBe(
        "APP_PROVIDER_ERROR: the illustrator paints storybook styles only; drop 'photorealistic' from the prompt",
      );

      const calls = server.panel.calls.map((c) => `${c.ns}.${c.method}:${c.outcome}`);
      expect(calls).toEqual(
        expect.arrayContaining([
          "llm.stream:allowed",
          "llm.complete:allowed",
          "tools.invoke:allowed",
          "window.set_title:allowed",
          "image.generate:allowed",
          "agent.session.create:allowed",
          "agent.session.run:allowed",
          "storage.set:allowed",
          "image.generate:error",
        ]),
      );
      expect(await server.dispatcher.getWindow(server.window.window_uuid)).toMatchObject({
        title: `${TITLE} · Picture Book Studio`,
      });

      await server.close();
      const recording = await readRecordingFile(record);
      expect(recording.issues.filter((i) => i.severity === "error")).toEqual([]);
      expect(recording.calls.map((c) => `${c.ns}.${c.method}`)).toContain("agent.session.run");
    }, 30_000);
  },
);
