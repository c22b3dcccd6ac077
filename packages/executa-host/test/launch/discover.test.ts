import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverExecutas } from "../../src/launch/discover.js";
import { NO_UV, copyFixture, fixture } from "./fixtures.js";

describe("discoverExecutas", () => {
  it("keeps the first of each tool_id, skips disabled and marker-less folders, and reports go.mod alone", async () => {
    const root = fixture("discovery/executas");
    const result = await discoverExecutas(root, NO_UV);
    expect(result.specs.map((s) => [path.basename(s.dir), s.toolId, s.type])).toEqual([
      ["alpha", "dup", "node"],
      ["gamma", "gamma", "node"],
      ["zeta", "zeta", "binary"],
    ]);
    expect(result.warnings).toEqual([
      `⚠ skipping executa beta: tool_id "dup" already provided by alpha`,
      `⚠ skipping executa no-tool-id: ${path.join(root, "no-tool-id", "executa.json")}: missing "tool_id"; add "tool_id": "<id>" (the id manifest.json uses)`,
    ]);
    expect(result.errors.map((e) => e.code)).toEqual(["GO_MOD_WITHOUT_EXECUTA_JSON"]);
    expect(result.errors[0]?.path).toBe(path.join(root, "go-only", "go.mod"));
  });

  it("ignores dependency, cache, build and hidden folders even when they hold executa.json", async () => {
    const root = await copyFixture("discovery/executas");
    for (const name of ["node_modules", "__pycache__", "demo.egg-info", "build", ".venv"]) {
      await mkdir(path.join(root, name));
      await writeFile(
        path.join(root, name, "executa.json"),
        JSON.stringify({ tool_id: `from-${name}`, type: "node", command: ["node", "x.js"] }),
      );
    }
    const result = await discoverExecutas(root, NO_UV);
    expect(result.specs.map((s) => s.toolId)).toEqual(["dup", "gamma", "zeta"]);
  });

  it("skips a disabled folder before validating it", async () => {
    const root = await copyFixture("discovery/executas");
    await mkdir(path.join(root, "parked"));
    await writeFile(
      path.join(root, "parked", "executa.json"),
      JSON.stringify({ enabled: false, type: "binary", _comment: "draft, no tool_id yet" }),
    );
    const result = await discoverExecutas(root, NO_UV);
    expect(result.warnings.join("\n")).not.toContain("parked");
    expect(result.errors.map((e) => e.path)).not.toContain(path.join(root, "parked"));
    expect(result.specs.map((s) => s.toolId)).toEqual(["dup", "gamma", "zeta"]);
  });

  it("finds nothing, without error, when the executas folder does not exist", async () => {
    expect(await discoverExecutas(fixture("no-such-executas"), NO_UV)).toEqual({
      specs: [],
      warnings: [],
      errors: [],
      skills: [],
    });
  });

  it("lists skill folders as skills, without warnings or errors", async () => {
    const root = await copyFixture("discovery/executas");
    await mkdir(path.join(root, "guide"));
    await writeFile(
      path.join(root, "guide", "executa.json"),
      JSON.stringify({ executa_type: "skill", content_file: "SKILL.md" }),
    );
    await writeFile(path.join(root, "guide", "SKILL.md"), "---\nname: guide\n---\n");
    await mkdir(path.join(root, "bare"));
    await writeFile(path.join(root, "bare", "SKILL.md"), "---\nname: bare\n---\n");
    const result = await discoverExecutas(root, NO_UV);
    expect(result.skills.map((s) => [path.basename(s.dir), s.marker])).toEqual(
      expect.arrayContaining([
        ["bare", "SKILL.md"],
        ["guide", "executa.json"],
      ]),
    );
    expect(result.warnings.join("\n")).not.toMatch(/guide|bare/);
    expect(result.errors.map((e) => e.path)).not.toContain(path.join(root, "guide"));
  });
});
