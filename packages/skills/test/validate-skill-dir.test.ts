import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referencedPaths, validateSkillDir } from "../src/index.js";
import { FIXTURES, REFERENCE_SKILLS, skillMd, tempDir, writeTree } from "./helpers.js";

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

describe("validateSkillDir", () => {
  it("passes the reference skills without errors", async () => {
    for (const name of ["chart-generator", "csv-data-tools", "jq", "meeting-summary"]) {
      const r = await validateSkillDir(join(REFERENCE_SKILLS, name));
      expect([name, r.ok, r.errors, r.warnings]).toEqual([name, true, [], []]);
    }
  });

  it("reports a folder without SKILL.md", async () => {
    const dir = await tempDir();
    const r = await validateSkillDir(dir);
    expect(r.ok).toBe(false);
    expect(r.errors[0]).toMatchObject({
      code: "skill.skill_file_missing",
      file: join(dir, "SKILL.md"),
    });
  });

  it("returns the parser's errors for a broken SKILL.md", async () => {
    const r = await validateSkillDir(join(FIXTURES, "invalid", "yaml-python-tag"));
    expect(codes(r.errors)).toEqual(["skill.yaml_tag"]);
  });

  it("names the skill after its folder when the frontmatter has no name (X1)", async () => {
    const r = await validateSkillDir(join(FIXTURES, "warn", "no-name"));
    expect(r.skill?.name).toBe("no-name");
  });

  it("warns when publishing metadata is not declared (L4101, X54)", async () => {
    const dir = await tempDir();
    await writeTree(dir, { "SKILL.md": skillMd("s", "d", '{"matrix":{"emoji":"x"}}') });
    const r = await validateSkillDir(dir);
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('"execution_mode"'),
      expect.stringContaining('"category_name"'),
    ]);
    await writeTree(dir, { "SKILL.md": skillMd("s", "d") });
    expect(codes((await validateSkillDir(dir)).warnings)).toEqual([
      "skill.publish_metadata_missing",
    ]);
  });

  it("warns about referenced supporting files that do not exist, with the body line (S23)", async () => {
    const dir = await tempDir();
    const body =
      "See `templates/report.md.tpl` and [the example](examples/one.md).\n\nAlso `scripts/run.py`.\n";
    await writeTree(dir, {
      "SKILL.md": skillMd(
        "s",
        "d",
        '{"matrix":{"execution_mode":"prompt","category_name":"x"}}',
        body,
      ),
      "scripts/run.py": "print(1)\n",
    });
    const r = await validateSkillDir(dir);
    expect(r.warnings.map((w) => [w.code, w.line, w.message.match(/"([^"]+)"/)?.[1]])).toEqual([
      ["skill.reference_missing", 7, "examples/one.md"],
      ["skill.reference_missing", 7, "templates/report.md.tpl"],
    ]);
  });

  it("warns about references outside the skill folder ", async () => {
    const dir = await tempDir();
    const body = "Read [shared notes](../shared/notes.md) and `/etc/passwd` is not a reference.\n";
    await writeTree(dir, {
      "SKILL.md": skillMd(
        "s",
        "d",
        '{"matrix":{"execution_mode":"prompt","category_name":"x"}}',
        body,
      ),
    });
    expect(codes((await validateSkillDir(dir)).warnings)).toEqual(["skill.reference_outside"]);
  });

  it("warns about files that look like credentials", async () => {
    const dir = await tempDir();
    await writeTree(dir, {
      "SKILL.md": skillMd("s", "d", '{"matrix":{"execution_mode":"prompt","category_name":"x"}}'),
      ".env": "TOKEN=secret\n",
      ".env.example": "TOKEN=\n",
      "data/server.pem": "-----BEGIN-----\n",
    });
    const r = await validateSkillDir(dir);
    expect(
      r.warnings.filter((w) => w.code === "skill.secret_file").map((w) => w.message.split('"')[1]),
    ).toEqual([".env", "data/server.pem"]);
  });

  it("warns about an empty body", async () => {
    const dir = await tempDir();
    await writeTree(dir, {
      "SKILL.md":
        '---\nname: s\ndescription: d\nmetadata: {"matrix":{"execution_mode":"prompt","category_name":"x"}}\n---\n',
    });
    expect(codes((await validateSkillDir(dir)).warnings)).toEqual(["skill.body_empty"]);
  });
});

describe("referencedPaths", () => {
  it("ignores URLs, anchors, placeholders and code blocks", () => {
    const body = [
      "[site](https://example.com) [top](#intro) `examples/<name>.md` `templates/*.tpl`",
      "```bash",
      "cat examples/missing.md",
      "```",
      "`data/table.csv`",
    ].join("\n");
    expect(referencedPaths(body, 10)).toEqual([{ path: "data/table.csv", line: 14 }]);
  });
});
