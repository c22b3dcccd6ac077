// `anna-app executa init` through the built CLI: output, --json, and one-line refusals (exit 2).
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLine, runCli, stderrLines, tempDir } from "./helpers.js";

describe("anna-app executa init", () => {
  it("creates the default python template and prints the files and the next commands", async () => {
    const cwd = tempDir();
    const result = await runCli(["executa", "init", "hello-py"], { cwd });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Created hello-py (python template, tool_id tool-dev-hello-py)",
    );
    expect(result.stdout).toContain("hello-py/hello_py_plugin.py");
    expect(result.stdout).toMatch(
      /Next steps:\n {2}cd hello-py\n {2}python3 -m unittest\n {2}anna-app executa dev --dir \. --invoke hello --args '\{"name":"Ada"\}'\n$/,
    );
  });

  it("--json prints one line listing the created files", async () => {
    const cwd = tempDir();
    const result = await runCli(
      ["executa", "init", "g", "--template", "go", "--tool-id", "tool-acme-g-1", "--json"],
      { cwd },
    );
    expect(result.code).toBe(0);
    const body = jsonLine(result) as Record<string, unknown>;
    expect(body).toMatchObject({
      dir: path.join(cwd, "g"),
      template: "go",
      slug: "g",
      tool_id: "tool-acme-g-1",
      files: [".gitignore", "README.md", "executa.json", "go.mod", "main.go", "main_test.go"],
      overwritten: [],
    });
    expect((await readdir(path.join(cwd, "g"))).sort()).toEqual(
      [".gitignore", "README.md", "executa.json", "go.mod", "main.go", "main_test.go"].sort(),
    );
  });

  it("refuses a non-empty folder without --force: exit 2, one line, nothing written", async () => {
    const cwd = tempDir();
    await mkdir(path.join(cwd, "busy"));
    await writeFile(path.join(cwd, "busy", "keep.txt"), "x");
    const result = await runCli(["executa", "init", "busy"], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = stderrLines(result);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: .*busy is not empty \(keep\.txt\); pass --force/);
    expect(await readdir(path.join(cwd, "busy"))).toEqual(["keep.txt"]);

    const forced = await runCli(["executa", "init", "busy", "--force", "--template", "node"], {
      cwd,
    });
    expect(forced.code).toBe(0);
    expect(await readdir(path.join(cwd, "busy"))).toContain("plugin.mjs");
  });

  it("refuses a slug that is not kebab-case: exit 2, one line", async () => {
    const result = await runCli(["executa", "init", "x", "--slug", "Bad_Slug"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(stderrLines(result)).toEqual([
      "error: slug 'Bad_Slug' is not kebab-case (lowercase letters and digits in words joined by '-', starting with a letter); pass --slug bad-slug",
    ]);
  });

  it("refuses an invalid --tool-id and an unknown --template: exit 2, one line each", async () => {
    const cwd = tempDir();
    const badId = await runCli(["executa", "init", "x", "--tool-id", "has space"], { cwd });
    expect(badId.code).toBe(2);
    expect(stderrLines(badId)).toHaveLength(1);
    expect(badId.stderr).toContain("--tool-id 'has space' may only hold");

    const badTemplate = await runCli(["executa", "init", "x", "--template", "rust"], { cwd });
    expect(badTemplate.code).toBe(2);
    expect(stderrLines(badTemplate)).toEqual([
      "error: option '--template' must be one of python, node, go, ts (got 'rust') (see: anna-app executa init --help)",
    ]);
    expect(await readdir(cwd)).toEqual([]);
  });

  it("needs the <dir> argument", async () => {
    const result = await runCli(["executa", "init"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(stderrLines(result)).toEqual([
      "error: missing <dir>: the folder to create (see: anna-app executa init --help)",
    ]);
  });
});
