// scaffoldExecuta in-process: names, placeholders, refusals and --force, without a toolchain.
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillPlaceholders } from "../../src/executa-init/placeholders.js";
import { scaffoldExecuta, ScaffoldError } from "../../src/executa-init/scaffold.js";
import {
  fileDependency,
  PUBLISHED_RANGE as PUBLISHED_SDK_RANGE,
} from "../../src/scaffold/package-dependency.js";
import { EXECUTA_TEMPLATES } from "../../src/executa-init/templates.js";
import { REPO, SDK_DIR, tempDir } from "./helpers.js";

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function refusal(promise: Promise<unknown>): Promise<ScaffoldError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ScaffoldError))
    throw new Error(`expected a ScaffoldError, got ${String(error)}`);
  return error;
}

describe("scaffoldExecuta", () => {
  it.each(EXECUTA_TEMPLATES)("fills every placeholder of the %s template", async (template) => {
    const dir = path.join(tempDir(), "acme-weather");
    const result = await scaffoldExecuta({ dir, template, toolId: "tool-acme-weather-1a2b3c4d" });
    expect(result.slug).toBe("acme-weather");
    const files = await allFiles(dir);
    expect(files.length).toBe(result.files.length);
    for (const file of files) {
      expect(path.basename(file)).not.toContain("{{");
      const text = await readFile(file, "utf8");
      expect(text, file).not.toMatch(/\{\{\s*\w+\s*\}\}/);
    }
    const executa = JSON.parse(await readFile(path.join(dir, "executa.json"), "utf8"));
    expect(executa.tool_id).toBe("tool-acme-weather-1a2b3c4d");
    expect(result.files).toContain(".gitignore");
    expect(result.files).not.toContain("_gitignore");
  });

  it("takes the slug from --slug over the folder name and the tool id from the slug", async () => {
    const dir = path.join(tempDir(), "Whatever_Folder");
    const result = await scaffoldExecuta({ dir, template: "node", slug: "greeter" });
    expect(result.toolId).toBe("tool-dev-greeter");
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "greeter", bin: { "tool-dev-greeter": "plugin.mjs" } });
  });

  it("keeps the executable bit of plugin scripts", async () => {
    const dir = path.join(tempDir(), "runner");
    await scaffoldExecuta({ dir, template: "node" });
    expect((await stat(path.join(dir, "plugin.mjs"))).mode & 0o111).not.toBe(0);
    expect((await stat(path.join(dir, "package.json"))).mode & 0o111).toBe(0);
  });

  it("refuses a folder name that is not kebab-case, suggesting one, and writes nothing", async () => {
    const dir = path.join(tempDir(), "My_Tool");
    const error = await refusal(scaffoldExecuta({ dir, template: "python" }));
    expect(error.code).toBe("INVALID_SLUG");
    expect(error.message).toContain("'My_Tool' (the folder name)");
    expect(error.message).toContain("pass --slug my-tool");
    await expect(stat(dir)).rejects.toThrow();
  });

  it("refuses a bad --tool-id", async () => {
    const dir = path.join(tempDir(), "tool");
    const error = await refusal(scaffoldExecuta({ dir, template: "go", toolId: "Tool X" }));
    expect(error.code).toBe("INVALID_TOOL_ID");
  });

  it("refuses a non-empty folder without force, leaving it untouched", async () => {
    const dir = path.join(tempDir(), "busy");
    await mkdir(dir);
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const error = await refusal(scaffoldExecuta({ dir, template: "python" }));
    expect(error.code).toBe("TARGET_NOT_EMPTY");
    expect(error.message).toContain("notes.txt");
    expect(error.message).toContain("--force");
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });

  it("treats a folder holding only .git as empty", async () => {
    const dir = path.join(tempDir(), "fresh");
    await mkdir(path.join(dir, ".git"), { recursive: true });
    const result = await scaffoldExecuta({ dir, template: "go" });
    expect(result.overwritten).toEqual([]);
  });

  it("refuses a target that is a file", async () => {
    const file = path.join(tempDir(), "plain");
    await writeFile(file, "x");
    expect((await refusal(scaffoldExecuta({ dir: file, template: "node" }))).code).toBe(
      "TARGET_NOT_DIR",
    );
  });

  it("with force overwrites the template's files and keeps the others", async () => {
    const dir = path.join(tempDir(), "again");
    await scaffoldExecuta({ dir, template: "node" });
    await writeFile(path.join(dir, "plugin.mjs"), "// edited");
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const result = await scaffoldExecuta({ dir, template: "node", force: true });
    expect(result.overwritten).toEqual(result.files);
    expect(await readFile(path.join(dir, "plugin.mjs"), "utf8")).toContain("createInterface");
    expect(await readFile(path.join(dir, "notes.txt"), "utf8")).toBe("mine");
  });

  it("writes the SDK dependency it is given into the ts package.json", async () => {
    const dir = path.join(tempDir(), "published");
    await scaffoldExecuta({ dir, template: "ts", sdkDependency: PUBLISHED_SDK_RANGE });
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    expect(pkg.dependencies).toEqual({ "@anna-ai/executa-sdk": "^0.1.0" });
  });
});

describe("the ts template's SDK dependency", () => {
  it("is a relative file: path inside this checkout", () => {
    const target = path.join(REPO, "examples", "executas", "my-plugin");
    expect(fileDependency(SDK_DIR, target, REPO)).toBe("file:../../../packages/executa-sdk");
  });

  it("is an absolute file: path outside it", () => {
    expect(fileDependency(SDK_DIR, "/somewhere/else", REPO)).toBe(
      `file:${SDK_DIR.split(path.sep).join("/")}`,
    );
  });
});

describe("placeholders", () => {
  const values = {
    slug: "s",
    tool_id: "t",
    module: "m",
    display_name: "D",
    sdk_dependency: "x",
    cli_dependency: "y",
  };

  it("replaces every known name", () => {
    expect(fillPlaceholders("{{slug}}/{{ tool_id }}/{{module}}", values, "f")).toBe("s/t/m");
  });

  it("throws on an unknown name instead of leaving braces in a generated file", () => {
    expect(() => fillPlaceholders("{{nope}}", values, "tpl/file")).toThrow(
      "tpl/file: unknown template placeholder {{nope}}",
    );
  });
});
