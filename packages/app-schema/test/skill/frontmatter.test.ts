import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateSkillFrontmatter } from "../../src/skill/frontmatter.js";

describe("validateSkillFrontmatter", () => {
  it("defaults the name to the folder and applies metadata defaults", () => {
    const result = validateSkillFrontmatter(
      { description: "Summarise meetings" },
      { dirName: "meeting-summary" },
    );
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([]);
    expect(result.value).toMatchObject({
      name: "meeting-summary",
      skillKey: "meeting-summary",
      executionMode: "prompt",
      always: false,
      install: [],
      uninstall: [],
    });
  });

  it("uses skill_key as the tool identifier and keeps informational fields", () => {
    const result = validateSkillFrontmatter({
      name: "uv",
      description: "Run Python with uv",
      version: 2,
      author: "anna",
      title: "uv runner",
      metadata: {
        matrix: { skill_key: "uv-runner", always: true, os: ["linux"], requires: { bins: ["uv"] } },
      },
    });
    expect(result.value).toMatchObject({
      skillKey: "uv-runner",
      version: "2",
      author: "anna",
      title: "uv runner",
      always: true,
      os: ["linux"],
      requires: { bins: ["uv"] },
    });
  });

  it("warns about a folder-derived name that is not kebab-case, at the document root", () => {
    const result = validateSkillFrontmatter({ description: "d" }, { dirName: "My Skill" });
    expect(result.ok).toBe(true);
    expect(result.issues.map((i) => [i.pointer, i.message])).toEqual([
      ["", 'skill name "My Skill" is not lowercase kebab-case (e.g. "my-skill")'],
    ]);
  });

  it("rejects values a YAML parser instantiated (dates, nested objects) with a message, not a crash", () => {
    const result = validateSkillFrontmatter({ name: "x", description: new Date(0) });
    expect(result.ok).toBe(false);
    expect(result.issues[0]?.pointer).toBe("/description");
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            name: fc.jsonValue(),
            description: fc.jsonValue(),
            metadata: fc.oneof(fc.string(), fc.jsonValue()),
          }),
        ),
        (value) => {
          expect(typeof validateSkillFrontmatter(value).ok).toBe("boolean");
        },
      ),
      { numRuns: 300 },
    );
  });
});
