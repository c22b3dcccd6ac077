import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JSON_FILE_MAX_BYTES } from "../../src/validate/context.js";
import {
  ValidateConfigError,
  validateProject,
  type ValidateReport,
} from "../../src/validate/validate-project.js";
import {
  brief,
  VALID_APP_JSON,
  VALID_MANIFEST,
  validProject,
  writeProject,
  type ProjectFiles,
} from "./project.js";

async function run(
  files: ProjectFiles,
  options: { strict?: boolean; fix?: boolean; bundle?: string } = {},
) {
  const dir = writeProject(files);
  const report = await validateProject({ cwd: dir, strict: true, ...options });
  return { dir, report };
}

function codes(report: ValidateReport): string[] {
  return report.diagnostics.map((d) => d.code);
}

function find(report: ValidateReport, code: string) {
  const found = report.diagnostics.find((d) => d.code === code);
  expect(found, `${code} not in ${JSON.stringify(brief(report.diagnostics))}`).toBeDefined();
  return found!;
}

function manifestWith(patch: (m: typeof VALID_MANIFEST) => unknown): ProjectFiles {
  return { "manifest.json": patch(structuredClone(VALID_MANIFEST)) as object };
}

describe("validateProject: the project", () => {
  it("accepts a complete valid project with no finding in any layer", async () => {
    const { report } = await run(validProject());
    expect(brief(report.diagnostics)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.layers.map((l) => l.status)).toEqual(["passed", "passed", "passed", "passed"]);
  });

  it("refuses a folder without a manifest as a usage problem", async () => {
    const dir = writeProject({ "README.md": "x" });
    await expect(validateProject({ cwd: dir })).rejects.toBeInstanceOf(ValidateConfigError);
    await expect(validateProject({ cwd: dir, dir: "missing" })).rejects.toThrow(/does not exist/);
    await expect(validateProject({ cwd: dir, dir: "README.md" })).rejects.toThrow(/is a file/);
  });

  it("refuses a --bundle folder that does not exist", async () => {
    const dir = writeProject(validProject());
    await expect(validateProject({ cwd: dir, bundle: "dist" })).rejects.toThrow(
      /--bundle dist is not a folder/,
    );
  });

  it("finds the manifest through --manifest and the project through a positional folder", async () => {
    const dir = writeProject({
      "apps/focus/manifest.json": { schema: 1, required_executas: [{ tool_id: "web_search" }] },
    });
    const viaManifest = await validateProject({ cwd: dir, manifest: "apps/focus/manifest.json" });
    const viaDir = await validateProject({ cwd: dir, dir: "apps/focus" });
    expect([viaManifest.ok, viaDir.ok]).toEqual([true, true]);
    expect(viaManifest.root).toBe(path.join(dir, "apps/focus"));
  });

  it("runs the strict layer only with --strict", async () => {
    const { report } = await run(validProject(), { strict: false });
    expect(report.layers.at(-1)).toEqual({
      layer: "strict",
      status: "skipped",
      errors: 0,
      warnings: 0,
    });
  });
});

describe("validateProject: reading JSON", () => {
  it("reports malformed JSON with its line and column and stops before later layers", async () => {
    const { report } = await run({
      ...validProject(),
      "manifest.json": '{\n  "schema": 2,\n  "ui": {,}\n}\n',
    });
    expect(brief(report.diagnostics)).toEqual(["error json.syntax manifest.json:3:10 "]);
    expect(report.diagnostics[0]?.message).toContain("not valid JSON");
    expect(report.layers.map((l) => l.status)).toEqual(["failed", "skipped", "skipped", "skipped"]);
  });

  it("accepts JSON files with a UTF-8 BOM", async () => {
    const files = validProject();
    const { report } = await run({
      ...files,
      "manifest.json": "\uFEFF" + JSON.stringify(VALID_MANIFEST),
      "app.json": "\uFEFF" + JSON.stringify(files["app.json"]),
      "executas/focus/executa.json": '\uFEFF{"tool_id": "tool-dev-focus-session", "type": "node"}',
    });
    expect(brief(report.diagnostics)).toEqual([]);
  });

  it("accepts the real-world shapes the platform accepts: empty arrays, agent as an object, key-sorted", async () => {
    const manifest = {
      optional_executas: [],
      permissions: [],
      required_executas: [{ tool_id: "bundled:focus" }],
      schema: 2,
      tags: [],
      ui: {
        bundle: { entry: "index.html" },
        host_api: {
          agent: { session: { auto: true, fixed: null }, tools: [] },
          storage: ["read", "write"],
          tools: [],
        },
        views: [{ default: true, name: "main", title: "Focus Flow" }],
      },
    };
    const { report } = await run({ ...validProject(), "manifest.json": JSON.stringify(manifest) });
    expect(report.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("warns about a duplicate key at the later occurrence and uses its value", async () => {
    const text = JSON.stringify(VALID_MANIFEST, null, 2).replace(
      '"schema": 2,',
      '"schema": 1,\n  "schema": 2,',
    );
    const { report } = await run({ ...validProject(), "manifest.json": text });
    expect(brief(report.diagnostics)).toEqual([
      "warning json.duplicate_key manifest.json:3:3 /schema",
    ]);
    expect(report.ok).toBe(true);
  });

  it("refuses a 10 MB manifest with a message instead of parsing it", async () => {
    const huge = JSON.stringify({ ...VALID_MANIFEST, tags: ["x".repeat(10 * 1024 * 1024)] });
    const { report } = await run({ ...validProject(), "manifest.json": huge });
    expect(brief(report.diagnostics)).toEqual(["error json.too_large manifest.json:1:1 "]);
    expect(report.diagnostics[0]?.message).toMatch(/10\.0 MiB, more than the 2\.0 MiB/);
    expect(JSON_FILE_MAX_BYTES).toBe(2 * 1024 * 1024);
  });

  it("refuses a manifest that is not UTF-8", async () => {
    const dir = writeProject(validProject());
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(dir, "manifest.json"), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    const report = await validateProject({ cwd: dir });
    expect(codes(report)).toEqual(["json.encoding"]);
  });

  it("reports malformed app.json and executa.json at their own line and column", async () => {
    const { report } = await run({
      ...validProject(),
      "app.json": '{"name": "x",\n "slug": }',
      "executas/focus/executa.json": '{"tool_id": "a" "type": "node"}',
    });
    expect(brief(report.diagnostics)).toEqual([
      "error json.syntax app.json:2:10 ",
      "error json.syntax executas/focus/executa.json:1:17 ",
    ]);
  });
});

describe("validateProject: layer 1, JSON Schema", () => {
  it("reports an unknown manifest field at its key with the accepted fields", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({ ...m, slug: "focus" })),
    });
    const d = find(report, "schema.unknown_field");
    expect([d.file, d.pointer, d.line, d.column]).toEqual(["manifest.json", "/slug", 43, 3]);
    expect(d.message).toContain('unknown field "slug"');
    expect(report.layers.map((l) => l.status)).toEqual(["failed", "skipped", "skipped", "skipped"]);
  });

  it("keeps the platform's own message verbatim beside the English one", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({
        ...m,
        ui: { ...m.ui, bundle: { entry: "index.html", format: "zip" } },
      })),
    });
    const d = find(report, "ui.bundle.format");
    expect(d.specMessage).toBe("ui.bundle.format 当前仅支持 'static-spa'");
    expect(d.message).toContain('use "static-spa"');
  });

  it("validates app.json and executa.json with the same schemas as the platform", async () => {
    const { report } = await run({
      ...validProject(),
      "app.json": {
        name: "Focus",
        slug: "-bad-",
        category: "games",
        bundled_executas: { focus: { path: "executas/focus" } },
      },
      "executas/focus/executa.json": { tool_id: "tool-dev-focus-session", type: "ruby" },
    });
    expect(brief(report.diagnostics)).toEqual([
      "error schema.invalid_format app.json:3:3 /slug",
      "error schema.invalid_value app.json:4:3 /category",
      "error executa_json.type executas/focus/executa.json:3:3 /type",
    ]);
  });
});

describe("validateProject: layer 2, UI static checks", () => {
  it("fails when ui.bundle.entry is not in the bundle, quoting the finalize message", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({ ...m, ui: { ...m.ui, bundle: { entry: "main.html#/home" } } })),
    });
    const d = find(report, "ui.bundle.entry_missing");
    expect([d.severity, d.pointer]).toEqual(["error", "/ui/bundle/entry"]);
    expect(d.specMessage).toBe("ui.bundle.entry 'main.html#/home' 未在上传的 file_map 中");
    expect(report.layers.map((l) => l.status)).toEqual(["passed", "failed", "skipped", "skipped"]);
  });

  it("warns when a view's entry, mobile entry or icon is missing from the bundle", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({
        ...m,
        ui: {
          ...m.ui,
          form_factors: ["desktop", "mobile"],
          views: [
            {
              ...m.ui.views[0],
              entry: "views/main.html",
              mobile_entry: "m.html",
              icon: "nope.svg",
            },
          ],
        },
      })),
      "bundle/style.css": "body { padding: env(safe-area-inset-top); }",
    });
    expect(codes(report)).toEqual([
      "ui.views.entry_missing",
      "ui.views.mobile_entry_missing",
      "ui.views.icon_missing",
    ]);
    expect(report.ok).toBe(true);
  });

  it("warns when a mobile entry sets its own viewport meta or the bundle ignores safe areas", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({ ...m, ui: { ...m.ui, form_factors: ["desktop", "mobile"] } })),
      "bundle/index.html": '<!doctype html>\n<meta name="viewport" content="width=device-width">\n',
    });
    expect(brief(report.diagnostics)).toEqual([
      "warning ui.mobile.viewport_meta manifest.json:18:7 /ui/views/0",
      "warning ui.mobile.safe_area manifest.json:42:5 /ui/form_factors",
    ]);
    expect(report.diagnostics[0]?.related).toEqual([
      { file: "bundle/index.html", line: 2, column: 1 },
    ]);
  });

  it("warns when the bundle folder is absent (built later), and skips the file checks", async () => {
    const files = validProject();
    for (const key of Object.keys(files)) if (key.startsWith("bundle/")) delete files[key];
    const { report } = await run(files);
    expect(codes(report)).toEqual(["ui.bundle.dir_missing", "strict.no_bundle"]);
    expect(report.ok).toBe(true);
  });

  it("passes through the app-schema view rules (a default view, unique names)", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({
        ...m,
        ui: { ...m.ui, views: [{ ...m.ui.views[0], default: false }] },
      })),
    });
    expect(codes(report)).toEqual(["ui.views.no_default"]);
  });
});

describe("validateProject: layer 3, cross-file", () => {
  it("ignores executas, skills and manifests inside node_modules, build, dist and dot-folders", async () => {
    const broken = "---\nname: [oops\n---\n";
    const { report } = await run({
      ...validProject(),
      "executas/node_modules/x/executa.json": '{"tool_id": ',
      "executas/build/executa.json": { tool_id: "other", type: "node" },
      "executas/.cache/executa.json": { tool_id: "other", type: "node" },
      "node_modules/pkg/SKILL.md": broken,
      "dist/SKILL.md": broken,
      ".git/SKILL.md": broken,
      "executas/focus/__pycache__/SKILL.md": broken,
      "bundle/node_modules/lib/index.js": "anna.llm.complete({})",
    });
    expect(brief(report.diagnostics)).toEqual([]);
  });

  it("says how to add bundled_executas when app.json has none", async () => {
    const { report } = await run({
      ...validProject(),
      "app.json": { name: "Focus Flow", slug: "focus-flow", category: "productivity" },
    });
    const d = find(report, "bundled.unknown_handle");
    expect(d.message).toBe(
      '"bundled:focus": app.json has no bundled_executas to resolve "focus"; add "bundled_executas": {"focus": {"path": "executas/focus"}} to app.json',
    );
  });

  it("checks a skill executa.json as a skill: its content_file must exist", async () => {
    const { report } = await run({
      ...validProject(),
      "executas/focus-coach/executa.json": { executa_type: "skill", content_file: "GUIDE.md" },
    });
    const d = find(report, "executa_json.skill_content_missing");
    expect([d.severity, d.file, d.pointer]).toEqual([
      "error",
      "executas/focus-coach/executa.json",
      "/content_file",
    ]);
    expect(d.message).toMatch(/^skill content file GUIDE\.md does not exist/);
    expect(brief(report.diagnostics).filter((l) => /type|tool_id/.test(l))).toEqual([]);
  });

  it("validates every SKILL.md folder with @anna-ai/skills", async () => {
    const { report } = await run({
      ...validProject(),
      "executas/focus-coach/SKILL.md": "no frontmatter here\n",
    });
    const d = find(report, "skill.no_frontmatter");
    expect([d.severity, d.file, d.line]).toEqual(["error", "executas/focus-coach/SKILL.md", 1]);
  });

  it("refuses a SKILL.md whose YAML tries to instantiate types, with a clear message", async () => {
    const { report } = await run({
      ...validProject(),
      "executas/focus-coach/SKILL.md":
        "---\nname: focus-coach\ndescription: !!python/object/apply:os.system ['echo pwned']\n---\nBody\n",
    });
    const d = find(report, "skill.yaml_tag");
    expect([d.severity, d.file, d.line]).toEqual(["error", "executas/focus-coach/SKILL.md", 3]);
    expect(d.message).toContain("!!python/object/apply:os.system");
  });

  it("stops at the first failing layer: UI errors keep the tool_id linter from running", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({ ...m, ui: { ...m.ui, bundle: { entry: "missing.html" } } })),
      "app.json": { name: "Focus", slug: "focus-flow", category: "productivity" },
    });
    expect(codes(report)).toEqual(["ui.bundle.entry_missing"]);
    expect(report.layers.find((l) => l.layer === "cross-file")?.status).toBe("skipped");
  });
});

describe("validateProject: layer 3, valid cases", () => {
  it.each<[string, ProjectFiles]>([
    [
      "a required:bundled:<handle> ref declared as bundled:<handle>",
      manifestWith((m) => ({
        ...m,
        ui: { ...m.ui, host_api: { ...m.ui.host_api, tools: ["required:bundled:focus"] } },
      })),
    ],
    [
      "a manifest that names the local executa's tool_id directly, without app.json",
      {
        ...manifestWith((m) => ({
          ...m,
          required_executas: [{ tool_id: "tool-dev-focus-session" }],
        })),
        "app.json": null,
      },
    ],
    [
      "an optional executa discovered from pyproject.toml",
      {
        ...manifestWith((m) => ({ ...m, optional_executas: [{ tool_id: "bundled:timer" }] })),
        "app.json": {
          name: "Focus Flow",
          slug: "focus-flow",
          category: "productivity",
          bundled_executas: {
            focus: { path: "executas/focus" },
            timer: { path: "executas/timer" },
          },
        },
        "executas/timer/pyproject.toml":
          '[project]\nname = "timer"\nversion = "0.1.0"\n\n[project.scripts]\ntool-dev-timer = "timer_plugin:main"\n',
        "executas/timer/timer_plugin.py": "def main():\n    pass\n",
      },
    ],
    [
      "a committed anna-tool-ids.js that matches the local ids",
      {
        "bundle/anna-tool-ids.js":
          'window.__ANNA_TOOL_IDS__ = { "focus": "tool-dev-focus-session" };\n',
      },
    ],
    ["a SKILL.md-only folder under executas/ (skipped by discovery without a warning)", {}],
    [
      "a bundled skill: executa_type skill with content_file, referenced from bundled_executas",
      {
        "app.json": {
          ...VALID_APP_JSON,
          bundled_executas: {
            ...VALID_APP_JSON.bundled_executas,
            coach: { path: "executas/focus-coach" },
          },
        },
        "executas/focus-coach/executa.json": { executa_type: "skill", content_file: "SKILL.md" },
      },
    ],
    [
      "a bare SKILL.md folder referenced from bundled_executas",
      {
        "app.json": {
          ...VALID_APP_JSON,
          bundled_executas: {
            ...VALID_APP_JSON.bundled_executas,
            coach: { path: "executas/focus-coach" },
          },
        },
      },
    ],
    [
      "dev.fixtures globs that match recordings",
      {
        ...manifestWith((m) => ({
          ...m,
          dev: { fixtures: ["fixtures/*.jsonl", "./recordings/**/*.jsonl"] },
        })),
        "fixtures/happy.jsonl": "{}\n",
        "recordings/2026/11/run.jsonl": "{}\n",
      },
    ],
    [
      "a dev.fixtures folder that holds no recording yet (a fresh scaffold)",
      {
        ...manifestWith((m) => ({ ...m, dev: { fixtures: ["fixtures/*.jsonl"] } })),
        "fixtures/README.md": "Recordings land here.\n",
      },
    ],
  ])("accepts %s", async (_label, overrides) => {
    const { report } = await run({ ...validProject(), ...overrides });
    expect(brief(report.diagnostics)).toEqual([]);
  });

  it("warns about a dev.fixtures glob whose folder does not exist", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({ ...m, dev: { fixtures: ["fixtrues/*.jsonl"] } })),
    });
    expect(find(report, "dev.fixtures.no_match").message).toContain(
      'dev.fixtures glob "fixtrues/*.jsonl" matches no file',
    );
  });
});

describe("validateProject: layer 4, --strict", () => {
  const bundle = (code: string): ProjectFiles => ({ "bundle/app.js": code });

  it("fails for a call that ui.host_api does not grant, citing each call site", async () => {
    const { report } = await run({
      ...validProject(),
      ...bundle(
        "export const go = (rt) => {\n  rt.storage.delete({ key: 'a' });\n  rt?.llm?.complete?.({});\n};\n",
      ),
    });
    expect(brief(report.diagnostics)).toEqual([
      "error strict.not_granted manifest.json:37:7 /ui/host_api/storage",
      "error strict.not_granted manifest.json:33:5 /ui/host_api/llm",
    ]);
    expect(report.diagnostics[0]?.related).toEqual([{ file: "bundle/app.js", line: 2, column: 6 }]);
    expect(report.diagnostics[0]?.message).toContain('add "delete" to ui.host_api.storage');
  });

  it("counts the read/write/* aliases as grants (ruling A1)", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({
        ...m,
        permissions: [...m.permissions, "chat.read"],
        ui: {
          ...m.ui,
          host_api: {
            tools: ["required:*"],
            storage: ["read", "write"],
            chat: ["read"],
            web: ["*"],
          },
        },
      })),
      ...bundle(
        "export const go = (a) => [a.storage.get(), a.storage.delete(), a.chat.read_history(), a.web.fetch()];\n",
      ),
    });
    expect(report.diagnostics.filter((d) => d.layer === "strict")).toEqual([]);
  });

  it("needs a session submode for agent calls and a declared executa for tools calls", async () => {
    const { report } = await run({
      ...validProject(),
      ...manifestWith((m) => ({
        ...m,
        required_executas: [],
        ui: { ...m.ui, host_api: { storage: ["get", "set"], agent: { session: { auto: false } } } },
      })),
      "executas/focus/executa.json": null,
      ...bundle("export const go = (a) => [a.agent.session({}), a.tools.invoke({})];\n"),
    });
    const strict = report.diagnostics.filter((d) => d.layer === "strict");
    expect(strict.map((d) => d.pointer)).toEqual(["/ui/host_api/agent", "/ui/host_api/tools"]);
    expect(report.fixable).toBe(0);
  });
});

describe("validateProject: --fix", () => {
  it("adds the missing grants, reports what it changed, and passes afterwards", async () => {
    const { dir, report } = await run(
      {
        ...validProject(),
        ...bundle2("export const go = (a) => [a.storage.list(), a.chat?.write_message?.({})];\n"),
      },
      { fix: true },
    );
    expect(report.fixes.map((f) => f.description)).toEqual([
      'granted storage.list (added "list" to ui.host_api.storage)',
      'granted chat.write_message (added "write_message" to ui.host_api.chat)',
    ]);
    expect(report.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(path.join(dir, "manifest.json"), "utf8"),
    ) as typeof VALID_MANIFEST;
    expect(manifest.ui.host_api).toEqual({
      tools: ["required:*"],
      storage: ["get", "set", "list"],
      chat: ["write_message"],
    });
  });

  it("corrects a mistyped bundled handle that has exactly one candidate", async () => {
    const { dir, report } = await run(
      {
        ...validProject(),
        ...manifestWith((m) => ({ ...m, required_executas: [{ tool_id: "bundled:focis" }] })),
      },
      { fix: true },
    );
    expect(report.fixes).toEqual([
      {
        file: "manifest.json",
        pointer: "/required_executas/0/tool_id",
        description: 'replaced "bundled:focis" with "bundled:focus"',
      },
    ]);
    expect(report.ok).toBe(true);
    expect(readFileSync(path.join(dir, "manifest.json"), "utf8")).toContain(
      '"tool_id": "bundled:focus"',
    );
  });

  it("corrects a mistyped host_api.tools ref, keeping its required:/bundled: prefix", async () => {
    const { dir, report } = await run(
      {
        ...validProject(),
        ...manifestWith((m) => ({
          ...m,
          optional_executas: [{ tool_id: "web_search" }],
          ui: {
            ...m.ui,
            host_api: { ...m.ui.host_api, tools: ["required:bundled:focs", "optional:web_serch"] },
          },
        })),
      },
      { fix: true },
    );
    expect(report.fixes.map((f) => f.description)).toEqual([
      'replaced "required:bundled:focs" with "required:bundled:focus"',
      'replaced "optional:web_serch" with "optional:web_search"',
    ]);
    expect(report.ok).toBe(true);
    const manifest = JSON.parse(
      readFileSync(path.join(dir, "manifest.json"), "utf8"),
    ) as typeof VALID_MANIFEST;
    expect(manifest.ui.host_api.tools).toEqual(["required:bundled:focus", "optional:web_search"]);
  });

  it("leaves a typo with two candidates for the author", async () => {
    const { report } = await run(
      {
        ...validProject(),
        ...manifestWith((m) => ({
          ...m,
          required_executas: [{ tool_id: "bundled:focus" }, { tool_id: "bundled:fokus" }],
          ui: { ...m.ui, host_api: { ...m.ui.host_api, tools: ["required:bundled:foXus"] } },
        })),
        "app.json": {
          name: "Focus Flow",
          slug: "focus-flow",
          category: "productivity",
          bundled_executas: {
            focus: { path: "executas/focus" },
            fokus: { path: "executas/focus" },
          },
        },
      },
      { fix: true },
    );
    expect(report.fixes).toEqual([]);
    expect(codes(report)).toContain("bundled.unknown_handle");
  });

  it("without --fix only counts what it could fix and leaves the files alone", async () => {
    const files = { ...validProject(), ...bundle2("export const go = (a) => a.storage.list();\n") };
    const { dir, report } = await run(files);
    expect(report.fixable).toBe(1);
    expect(report.fixes).toEqual([]);
    expect(readFileSync(path.join(dir, "manifest.json"), "utf8")).toBe(
      JSON.stringify(VALID_MANIFEST, null, 2) + "\n",
    );
  });
});

function bundle2(code: string): ProjectFiles {
  return { "bundle/app.js": code };
}
