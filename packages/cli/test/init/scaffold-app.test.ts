// scaffoldApp in-process: the tree each template writes, its files checked against the app
// schemas, and the refusals (which write nothing) — without running any toolchain.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { bundledExecutasOf, validateAppListing, validateAppManifest } from "@anna-ai/app-schema";
import { validateSkillDir } from "@anna-ai/skills";
import { describe, expect, it } from "vitest";
import { devFixtures } from "../../src/dev/dev-fixtures.js";
import { APP_TEMPLATE_SPECS, APP_TEMPLATES } from "../../src/init/app-templates.js";
import { InitError, scaffoldApp } from "../../src/init/scaffold-app.js";
import { tempDir } from "../executa-init/helpers.js";

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8")) as unknown;
}

async function refusal(promise: Promise<unknown>): Promise<InitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InitError)) throw new Error(`expected an InitError, got ${String(error)}`);
  return error;
}

const APP_FILES = [
  ".gitignore",
  "README.md",
  "app.json",
  "bundle/anna-tool-ids.js",
  "bundle/app.js",
  "bundle/icon.svg",
  "bundle/index.html",
  "bundle/logic.js",
  "bundle/style.css",
  "fixtures/README.md",
  "manifest.json",
  "package.json",
  "tests/bundle.test.js",
  "vitest.config.js",
];

describe("scaffoldApp", () => {
  it("writes the quickstart's tree for the minimal template, its executa named after the slug", async () => {
    const dir = path.join(tempDir(), "my-focus-flow");
    const result = await scaffoldApp({ dir, template: "minimal", slug: "focus-flow" });
    expect(result).toMatchObject({
      slug: "focus-flow",
      handle: "focus-flow",
      toolId: "tool-dev-focus-flow",
      executaDir: "executas/focus-flow",
      executaTemplate: "python",
      skill: undefined,
      overwritten: [],
    });
    expect(result.files).toEqual(
      [
        ...APP_FILES,
        "executas/focus-flow/.gitignore",
        "executas/focus-flow/README.md",
        "executas/focus-flow/executa.json",
        "executas/focus-flow/focus_flow_plugin.py",
        "executas/focus-flow/pyproject.toml",
        "executas/focus-flow/tests/__init__.py",
        "executas/focus-flow/tests/test_plugin.py",
      ].sort(),
    );
    expect(await allFiles(dir)).toEqual(result.files);
  });

  it.each(APP_TEMPLATES)(
    "fills every placeholder of the %s template and writes what it reports",
    async (template) => {
      const dir = path.join(tempDir(), "greeter-app");
      const result = await scaffoldApp({ dir, template });
      expect(await allFiles(dir)).toEqual(result.files);
      for (const file of result.files) {
        expect(file).not.toContain("{{");
        const text = await readFile(path.join(dir, file), "utf8");
        expect(text, file).not.toMatch(/\{\{\s*\w+\s*\}\}/);
      }
    },
  );

  it.each(APP_TEMPLATES)(
    "writes a %s manifest and app.json the app schemas accept without a warning",
    async (template) => {
      const dir = path.join(tempDir(), "greeter-app");
      const result = await scaffoldApp({ dir, template });
      const manifest = validateAppManifest(await readJson(path.join(dir, "manifest.json")));
      expect(manifest.issues).toEqual([]);
      expect(manifest.ok).toBe(true);
      const listing = validateAppListing(await readJson(path.join(dir, "app.json")));
      expect(listing.issues).toEqual([]);
      expect(listing.ok).toBe(true);
      expect(manifest.value?.schema).toBe(2);
      expect(manifest.value?.required_executas).toEqual([{ tool_id: `bundled:${result.handle}` }]);
      expect(manifest.value?.ui?.host_api?.tools).toEqual([`required:bundled:${result.handle}`]);
      expect(listing.value?.slug).toBe(result.slug);
      expect(bundledExecutasOf(listing.value ?? {}).get(result.handle)).toEqual({
        path: result.executaDir,
      });
    },
  );

  it.each(APP_TEMPLATES)(
    "gives the %s executa the tool_id the bundle's anna-tool-ids.js names",
    async (template) => {
      const dir = path.join(tempDir(), "greeter-app");
      const result = await scaffoldApp({ dir, template });
      const executa = await readJson(path.join(dir, result.executaDir, "executa.json"));
      expect(executa).toMatchObject({
        tool_id: "tool-dev-greeter-app",
        type: template === "ts" ? "node" : "python",
      });
      const ids = await readFile(path.join(dir, "bundle/anna-tool-ids.js"), "utf8");
      expect(ids).toContain(
        `window.__ANNA_TOOL_IDS__ = { "greeter-app": "tool-dev-greeter-app" };`,
      );
    },
  );

  it.each(APP_TEMPLATES)(
    "keeps the %s app's own session recordings out of git and lists them for replay",
    async (template) => {
      const dir = path.join(tempDir(), "greeter-app");
      await scaffoldApp({ dir, template });
      execFileSync("git", ["init", "-q"], { cwd: dir });
      const session = "fixtures/dev-session-2026-12-01T10-00-00-000Z.jsonl";
      await writeFile(path.join(dir, session), "");
      await writeFile(path.join(dir, "fixtures/first-visit.jsonl"), "");
      const ignored = (paths: string[]): string =>
        spawnSync("git", ["check-ignore", ...paths], { cwd: dir, encoding: "utf8" }).stdout;
      expect(ignored([session, "fixtures/first-visit.jsonl"]).trim()).toBe(session);
      const manifest = validateAppManifest(await readJson(path.join(dir, "manifest.json")));
      const listed = await devFixtures(dir, manifest.value?.dev?.fixtures ?? []).list();
      expect(listed.map((entry) => entry.file)).toEqual([session, "fixtures/first-visit.jsonl"]);
    },
  );

  it("bundles a SKILL.md the skills validator accepts in the skill template", async () => {
    const dir = path.join(tempDir(), "greeter-app");
    const result = await scaffoldApp({ dir, template: "skill" });
    expect(result.skill).toBe("greeter-app-guide");
    expect(result.files).toContain("executas/greeter-app-guide/SKILL.md");
    const skill = await validateSkillDir(path.join(dir, "executas/greeter-app-guide"));
    expect(skill.errors).toEqual([]);
    expect(skill.warnings).toEqual([]);
    const manifest = (await readJson(path.join(dir, "manifest.json"))) as Record<string, unknown>;
    expect(manifest.system_prompt_addendum).toContain("greeter-app-guide skill");
  });

  it("only the skill template writes a skill", () => {
    expect(APP_TEMPLATES.filter((t) => APP_TEMPLATE_SPECS[t].skill)).toEqual(["skill"]);
  });

  it("derives a valid handle when the slug is not a valid executa slug", async () => {
    const dir = path.join(tempDir(), "3d--viewer");
    const result = await scaffoldApp({ dir, template: "minimal" });
    expect(result).toMatchObject({ slug: "3d--viewer", handle: "app-3d-viewer" });
    expect(result.files).toContain("executas/app-3d-viewer/app_3d_viewer_plugin.py");
    const listing = (await readJson(path.join(dir, "app.json"))) as Record<string, unknown>;
    expect(listing).toMatchObject({ name: "3d Viewer", slug: "3d--viewer" });
  });

  it("refuses a folder name that is not an app slug, suggesting one, and writes nothing", async () => {
    const dir = path.join(tempDir(), "My_App");
    const error = await refusal(scaffoldApp({ dir, template: "minimal" }));
    expect(error.code).toBe("INVALID_SLUG");
    expect(error.message).toBe(
      "slug 'My_App' (the folder name) is not a valid app slug (3–80 of a-z 0-9 -, starting and ending with a letter or digit); pass --slug my-app",
    );
    await expect(stat(dir)).rejects.toThrow();
  });

  it("refuses a bad --slug without blaming the folder", async () => {
    const dir = path.join(tempDir(), "fine");
    const error = await refusal(scaffoldApp({ dir, template: "minimal", slug: "ab" }));
    expect(error.message).toBe(
      "slug 'ab' is not a valid app slug (3–80 of a-z 0-9 -, starting and ending with a letter or digit); pass --slug <slug>",
    );
  });

  it("refuses a non-empty folder without force, leaving it untouched", async () => {
    const dir = path.join(tempDir(), "busy-app");
    await mkdir(dir);
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const error = await refusal(scaffoldApp({ dir, template: "minimal" }));
    expect(error.code).toBe("TARGET_NOT_EMPTY");
    expect(error.message).toBe(
      `${dir} is not empty (notes.txt); pass --force to write the template into it`,
    );
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });

  it("treats a folder holding only .git as empty", async () => {
    const dir = path.join(tempDir(), "fresh-repo");
    await mkdir(path.join(dir, ".git"), { recursive: true });
    const result = await scaffoldApp({ dir, template: "minimal" });
    expect(result.overwritten).toEqual([]);
  });

  it("refuses a target that is a file", async () => {
    const file = path.join(tempDir(), "plain-file");
    await writeFile(file, "x");
    const error = await refusal(scaffoldApp({ dir: file, template: "minimal" }));
    expect(error.code).toBe("TARGET_NOT_DIR");
  });

  it("with force, overwrites files of the same name and keeps the others", async () => {
    const dir = path.join(tempDir(), "busy-app");
    await mkdir(path.join(dir, "executas/busy-app"), { recursive: true });
    await writeFile(path.join(dir, "manifest.json"), "{}");
    await writeFile(path.join(dir, "executas/busy-app/executa.json"), "{}");
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const result = await scaffoldApp({ dir, template: "minimal", force: true });
    expect(result.overwritten).toEqual(["executas/busy-app/executa.json", "manifest.json"]);
    expect(await readFile(path.join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(await readJson(path.join(dir, "manifest.json"))).toMatchObject({ schema: 2 });
  });
});
