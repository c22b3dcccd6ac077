// `anna-app init` through the built CLI: output, --json, help and one-line refusals (exit 2).
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLine, runCli, stderrLines, tempDir } from "../executa-init/helpers.js";

describe("anna-app init", () => {
  it("creates the minimal app and prints the files and the next commands", async () => {
    const cwd = tempDir();
    const result = await runCli(["init", "my-focus-flow", "--slug", "focus-flow"], { cwd });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Created app focus-flow (minimal template) in my-focus-flow: executa executas/focus-flow (tool_id tool-dev-focus-flow)",
    );
    expect(result.stdout).toContain("  my-focus-flow/manifest.json\n");
    expect(result.stdout).toContain("  my-focus-flow/executas/focus-flow/focus_flow_plugin.py\n");
    expect(result.stdout).toMatch(
      /Next steps:\n {2}cd my-focus-flow\n {2}anna-app validate --strict\n {2}\(cd executas\/focus-flow && python3 -m unittest\)\n {2}anna-app executa dev --dir executas\/focus-flow --invoke hello --args '\{"name":"Ada"\}'\n {2}npm install && npm test\n {2}anna-app dev\n$/,
    );
  });

  it("--json prints one line with the files, the executa and the next steps", async () => {
    const cwd = tempDir();
    const result = await runCli(["init", "notes", "--template", "ts", "--json"], { cwd });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const body = jsonLine(result) as Record<string, unknown>;
    expect(body).toMatchObject({
      dir: path.join(cwd, "notes"),
      template: "ts",
      slug: "notes",
      handle: "notes",
      tool_id: "tool-dev-notes",
      executa_dir: "executas/notes",
      executa_template: "ts",
      skill: null,
      overwritten: [],
      next_steps: [
        "cd notes",
        "(cd executas/notes && npm install && npm run build && npm test)",
        "anna-app validate --strict",
        `anna-app executa dev --dir executas/notes --invoke hello --args '{"name":"Ada"}'`,
        "npm install && npm test",
        "anna-app dev",
      ],
    });
    expect(body.files).toContain("executas/notes/src/main.ts");
  });

  it("initialises the current folder with `.`, taking the slug from its name", async () => {
    const cwd = path.join(tempDir(), "here-app");
    await mkdir(cwd);
    const result = await runCli(["init", ".", "--template", "skill", "--json"], { cwd });
    expect(result.code).toBe(0);
    const body = jsonLine(result) as { slug: string; skill: string; next_steps: string[] };
    expect(body.slug).toBe("here-app");
    expect(body.skill).toBe("here-app-guide");
    expect(body.next_steps[0]).toBe("anna-app validate --strict");
  });

  it("refuses a non-empty folder without --force: exit 2, one line, nothing written", async () => {
    const cwd = tempDir();
    await mkdir(path.join(cwd, "busy-app"));
    await writeFile(path.join(cwd, "busy-app", "keep.txt"), "x");
    const result = await runCli(["init", "busy-app"], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = stderrLines(result);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: .*busy-app is not empty \(keep\.txt\); pass --force/);
    expect(await readdir(path.join(cwd, "busy-app"))).toEqual(["keep.txt"]);

    const forced = await runCli(["init", "busy-app", "--force"], { cwd });
    expect(forced.code).toBe(0);
    expect((await readdir(path.join(cwd, "busy-app"))).sort()).toEqual(
      expect.arrayContaining(["keep.txt", "manifest.json", "app.json", "bundle", "executas"]),
    );
  });

  it("refuses a slug app.json would refuse: exit 2, one line with a suggestion", async () => {
    const cwd = tempDir();
    const result = await runCli(["init", "Focus_Flow"], { cwd });
    expect(result.code).toBe(2);
    expect(stderrLines(result)).toEqual([
      "error: slug 'Focus_Flow' (the folder name) is not a valid app slug (3–80 of a-z 0-9 -, starting and ending with a letter or digit); pass --slug focus-flow",
    ]);
    expect(await readdir(cwd)).toEqual([]);
  });

  it("names the valid templates when --template is unknown", async () => {
    const result = await runCli(["init", "x-app", "--template", "react"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(stderrLines(result)).toEqual([
      "error: option '--template' must be one of minimal, ts, skill (got 'react') (see: anna-app init --help)",
    ]);
  });

  it("needs a folder", async () => {
    const result = await runCli(["init"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(stderrLines(result)).toEqual([
      "error: missing <dir>: the folder to create (see: anna-app init --help)",
    ]);
  });

  it("documents every flag and template in --help and is listed in the top-level help", async () => {
    const help = await runCli(["init", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of ["--slug", "--template", "--force", "--json"]) {
      expect(help.stdout).toContain(flag);
    }
    for (const template of ["minimal (", "ts (", "skill ("])
      expect(help.stdout).toContain(template);
    const top = await runCli(["--help"]);
    expect(top.stdout).toMatch(/^ {2}init +Scaffold an Anna App/m);
  });
});
