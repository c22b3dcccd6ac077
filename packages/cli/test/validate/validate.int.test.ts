// The built CLI (`node packages/cli/bin/anna-app.js validate …`) on projects in temp dirs: exit
// codes, the human and --json reports, --fix, and bad input that must never crash it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../executa-dev/helpers.js";
import { VALID_MANIFEST, validProject, writeProject } from "./project.js";

interface JsonReport {
  version: number;
  ok: boolean;
  errors: number;
  warnings: number;
  layers: { layer: string; status: string }[];
  diagnostics: {
    severity: string;
    code: string;
    file: string;
    pointer: string;
    line: number;
    column: number;
    message: string;
    specMessage?: string;
  }[];
  fixes: { file: string; pointer: string; description: string }[];
}

function parseReport(stdout: string): JsonReport {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as JsonReport;
}

/** No stack trace, ever: errors are one line. */
function expectNoCrash(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe("anna-app validate (built CLI)", () => {
  it("exits 0 on a valid project and says which layers passed", async () => {
    const dir = writeProject(validProject());
    const result = await runCli(["validate", "--strict"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "✓ JSON Schema  ✓ UI static checks  ✓ cross-file tool_id linter  ✓ --strict bundle grep",
    );
    expect(result.stdout).toContain("✓ manifest.json is valid (0 errors, 0 warnings)");
  });

  it("exits 1 with file:line:column, pointer, message and the verbatim platform message", async () => {
    const dir = writeProject({
      ...validProject(),
      "manifest.json": { ...VALID_MANIFEST, ui: { ...VALID_MANIFEST.ui, views: [] } },
    });
    const result = await runCli(["validate"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("manifest.json:17:5 /ui/views error [ui.views.count]");
    expect(result.stdout).toContain("platform message: ui.views 数量必须在 1..16 之间");
  });

  it("prints one JSON report for CI with --json", async () => {
    const dir = writeProject({
      ...validProject(),
      "bundle/app.js": "export const go = (a) => a.storage.delete({});\n",
    });
    const result = await runCli(["validate", ".", "--strict", "--json"], { cwd: dir });
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report).toMatchObject({ version: 1, ok: false, errors: 1, warnings: 0 });
    expect(report.layers.map((l) => `${l.layer}:${l.status}`)).toEqual([
      "schema:passed",
      "ui:passed",
      "cross-file:passed",
      "strict:failed",
    ]);
    expect(report.diagnostics[0]).toMatchObject({
      severity: "error",
      code: "strict.not_granted",
      file: "manifest.json",
      pointer: "/ui/host_api/storage",
      line: 37,
      column: 7,
    });
  });

  it("--fix rewrites the manifest, prints what it changed and exits 0", async () => {
    const dir = writeProject({
      ...validProject(),
      "bundle/app.js": "export const go = (a) => a.storage?.list?.({});\n",
    });
    const result = await runCli(["validate", "--strict", "--fix"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'fixed manifest.json /ui/host_api/storage: granted storage.list (added "list" to ui.host_api.storage)',
    );
    const manifest = JSON.parse(
      readFileSync(path.join(dir, "manifest.json"), "utf8"),
    ) as typeof VALID_MANIFEST;
    expect(manifest.ui.host_api.storage).toEqual(["get", "set", "list"]);
  });

  it("takes the manifest and bundle from --manifest and --bundle", async () => {
    const dir = writeProject({
      "app/manifest.json": { ...VALID_MANIFEST, required_executas: [{ tool_id: "web_search" }] },
      "web/dist/index.html": "<!doctype html>\n",
      "web/dist/icon.svg": "<svg/>\n",
      "web/dist/main.js": "export const go = (a) => a.storage.get({});\n",
    });
    const result = await runCli(
      ["validate", "--manifest", "app/manifest.json", "--bundle", "web/dist", "--strict", "--json"],
      {
        cwd: dir,
      },
    );
    const report = parseReport(result.stdout);
    expect(report.diagnostics).toEqual([]);
    expect(result.code).toBe(0);
  });

  it("exits 2 with one line when there is no manifest, also with --json", async () => {
    const dir = writeProject({ "README.md": "not an app\n" });
    const human = await runCli(["validate"], { cwd: dir });
    expect(human.code).toBe(2);
    expect(human.stderr.trim().split("\n")).toHaveLength(1);
    expect(human.stderr).toContain("no manifest at manifest.json");
    const json = await runCli(["validate", "--json"], { cwd: dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout) as unknown).toMatchObject({
      ok: false,
      error: { code: "config" },
    });
  });

  it("exits 2 on a usage error", async () => {
    const dir = writeProject(validProject());
    const result = await runCli(["validate", "--strikt"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("did you mean '--strict'?");
  });

  it.each([
    ["malformed JSON", '{"schema": 2,,}', "json.syntax"],
    [
      "a BOM and a trailing comma",
      '\uFEFF{"schema": 1, "required_executas": [{"tool_id": "x"}],}',
      "json.syntax",
    ],
    ["an array", "[1, 2]", "schema.invalid_type"],
    ["a string", '"manifest"', "schema.invalid_type"],
    ["an empty file", "", "json.syntax"],
    ["binary garbage", "\u0000\u0001\u0002", "json.syntax"],
    ["deep nesting", "[".repeat(50_000), "json.syntax"],
  ])("reports %s clearly and never crashes", async (_label, text, code) => {
    const dir = writeProject(validProject());
    writeFileSync(path.join(dir, "manifest.json"), text);
    const result = await runCli(["validate", "--json"], { cwd: dir });
    expect(result.code).toBe(1);
    expectNoCrash(result.stderr);
    const report = parseReport(result.stdout);
    expect(report.diagnostics.map((d) => d.code)).toEqual([code]);
    expect(report.diagnostics[0]?.line).toBeGreaterThan(0);
  });

  it("reports a 10 MB manifest without parsing it", async () => {
    const dir = writeProject(validProject());
    writeFileSync(
      path.join(dir, "manifest.json"),
      JSON.stringify({ ...VALID_MANIFEST, tags: ["x".repeat(10_000_000)] }),
    );
    const result = await runCli(["validate"], { cwd: dir });
    expect(result.code).toBe(1);
    expectNoCrash(result.stderr);
    expect(result.stdout).toMatch(/manifest\.json:1:1 error \[json\.too_large\]/);
  });

  it("warns about duplicate keys in a single-line, key-sorted manifest at the right column", async () => {
    const text =
      '{"permissions":["tools.invoke"],"required_executas":[{"tool_id":"web_search"}],"schema":1,"schema":1}';
    const dir = writeProject({ "manifest.json": text });
    const result = await runCli(["validate", "--json"], { cwd: dir });
    expect(result.code).toBe(0);
    const [d] = parseReport(result.stdout).diagnostics;
    expect(d).toMatchObject({
      code: "json.duplicate_key",
      line: 1,
      column: text.lastIndexOf('"schema"') + 1,
    });
  });

  it("reports the same from the single-file bundle as from the modules", async () => {
    const dir = writeProject({
      ...validProject(),
      "bundle/app.js": "export const go = (a) => a.storage.delete({});\n",
      "executas/coach/SKILL.md": "no frontmatter\n",
    });
    const fromBundle = await runCli(["validate", "--strict", "--json"], { cwd: dir });
    const fromModules = await runCli(["validate", "--strict", "--json"], {
      cwd: dir,
      env: { ANNA_CLI_NO_BUNDLE: "1" },
    });
    expect(fromBundle.code).toBe(1);
    expect(fromBundle.code).toBe(fromModules.code);
    expect(parseReport(fromBundle.stdout)).toEqual(parseReport(fromModules.stdout));
  });

  it("lists validate in the top-level help and documents its flags", async () => {
    const top = await runCli(["--help"]);
    expect(top.stdout).toMatch(/validate\s+Check an app project/);
    const help = await runCli(["validate", "--help"]);
    for (const flag of ["--manifest <path>", "--bundle <dir>", "--strict", "--fix", "--json"]) {
      expect(help.stdout).toContain(flag);
    }
  });
});
