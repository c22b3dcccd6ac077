import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { BundleHarness } from "../../src/test-kit/index.js";
import { guessProjectDir } from "../../src/test-kit/project-dir.js";
import { focusProject, TIMER_TOOL_ID, tempProject } from "./project.js";

const frame = (file: string): string => `Error\n    at Object.<anonymous> (${file}:3:9)`;

describe("guessProjectDir", () => {
  it("takes the current directory when it is an app", () => {
    const app = focusProject();
    const elsewhere = focusProject();
    expect(guessProjectDir(frame(path.join(elsewhere, "tests/a.spec.ts")), app)).toBe(app);
  });

  it("walks up from the calling test file when the current directory is not an app", () => {
    const app = focusProject();
    const cwd = tempProject({});
    const file = path.join(app, "tests/bundle/timer.spec.ts");
    expect(guessProjectDir(frame(file), cwd)).toBe(app);
    expect(guessProjectDir(`Error\n    at ${pathToFileURL(file).href}:3:9`, cwd)).toBe(app);
  });

  it("falls back to the current directory when nothing above the caller is an app", () => {
    const cwd = tempProject({});
    const loose = tempProject({ "tests/x.spec.ts": "" });
    expect(guessProjectDir(frame(path.join(loose, "tests/x.spec.ts")), cwd)).toBe(cwd);
    expect(guessProjectDir(undefined, cwd)).toBe(cwd);
  });
});

describe("mountBundle with a manifest object, run from outside the app", () => {
  it("resolves bundled tool ids from the app the calling test file lives in", async () => {
    const app = focusProject();
    mkdirSync(path.join(app, "tests"), { recursive: true });
    const kit = pathToFileURL(path.resolve(import.meta.dirname, "../../dist/test-kit/index.js"));
    // A test module of that app, calling mountBundle the way app tests do.
    writeFileSync(
      path.join(app, "tests/mount.mjs"),
      `import { mountBundle } from ${JSON.stringify(kit.href)};
import { readFileSync } from "node:fs";
const manifest = JSON.parse(readFileSync(new URL("../manifest.json", import.meta.url), "utf8"));
export const mount = () => mountBundle({ manifest, mocks: { "tools.invoke": () => "started" } });
`,
    );
    const { mount } = (await import(pathToFileURL(path.join(app, "tests/mount.mjs")).href)) as {
      mount: () => Promise<BundleHarness>;
    };
    const harness = await mount();
    expect(harness.projectDir).toBe(app);
    await expect(harness.runtime.tools.invoke({ tool_id: TIMER_TOOL_ID })).resolves.toBe("started");
  });
});
