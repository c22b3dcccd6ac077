import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSkillIssue, parseSkillFile } from "../src/index.js";
import { FIXTURES, REFERENCE_SKILLS } from "./helpers.js";

async function parseFixture(group: string, name: string) {
  const path = join(FIXTURES, group, name, "SKILL.md");
  return parseSkillFile(await readFile(path, "utf8"), { path });
}

describe("parseSkillFile on the reference skills (S30)", () => {
  it("reads chart-generator exactly as the spec writes it (L3907–3910)", async () => {
    const r = await parseFixture("skills", "chart-generator");
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    if (!r.ok) return;
    const { skill } = r;
    expect(skill.id).toBe("chart-generator");
    expect(skill.dir).toBe(join(REFERENCE_SKILLS, "chart-generator"));
    expect(skill.metadata).toEqual({
      always: false,
      emoji: "📈",
      execution_mode: "python",
      category_name: "data-analysis",
      namespace: "matrix",
      requires: {
        bins: [],
        any_bins: [],
        env: [],
        config: [],
        python_packages: ["matplotlib", "seaborn"],
      },
      install: [
        {
          id: "pip",
          kind: "pip",
          package: "matplotlib seaborn",
          label: "Install matplotlib & seaborn (pip)",
        },
      ],
      // X6: an uninstall recipe of kind pip may carry a command.
      uninstall: [
        {
          id: "pip",
          kind: "pip",
          command: "pip uninstall matplotlib seaborn",
          label: "Uninstall matplotlib & seaborn (pip)",
        },
      ],
    });
    expect(skill.body.startsWith("# Chart Generator\n")).toBe(true);
    expect(skill.bodyLine).toBe(7);
  });

  it("reads meeting-summary (L3838–3859) with a prompt-mode hint and no dependencies", async () => {
    const r = await parseFixture("skills", "meeting-summary");
    expect(r.ok && r.skill.metadata.execution_mode).toBe("prompt");
    expect(r.ok && r.skill.metadata.emoji).toBe("📝");
  });

  it.each([
    ["curl", "openclaw"],
    ["uv", "nexus"],
  ])("unwraps %s's metadata from the %s namespace (S5)", async (name, ns) => {
    const r = await parseFixture("skills", name);
    expect(r.ok && r.skill.metadata.namespace).toBe(ns);
  });

  it("takes metadata written as a YAML mapping, with version and author as information (S2, X5)", async () => {
    const r = await parseFixture("skills", "csv-data-tools");
    expect(r.errors).toEqual([]);
    if (!r.ok) return;
    expect(r.skill.metadata.execution_mode).toBe("hybrid");
    expect(r.skill.metadata.requires.any_bins).toEqual(["uv", "python3"]);
    expect(r.skill.frontmatter.version).toBe("1.2.0");
    expect(r.skill.frontmatter.author).toBe("anna");
  });

  it("reads every reference skill without an error or a warning", async () => {
    for (const name of ["jq", "curl", "uv", "pdf-tools", "postgres-client"]) {
      const r = await parseFixture("skills", name);
      expect([name, r.errors, r.warnings]).toEqual([name, [], []]);
    }
  });
});

describe("parseSkillFile metadata rules (S5–S10)", () => {
  const parse = (metadata: string) =>
    parseSkillFile(`---\nname: s\ndescription: d\nmetadata: ${metadata}\n---\nBody\n`, {
      path: "/x/s/SKILL.md",
    });

  it("uses the first of matrix, openclaw, nexus and ignores the rest (S5)", () => {
    const r = parse('{"nexus":{"execution_mode":"api"},"matrix":{"execution_mode":"bash"}}');
    expect(r.ok && r.skill.metadata.execution_mode).toBe("bash");
    expect(r.ok && r.skill.metadata.namespace).toBe("matrix");
  });

  it("consumes un-namespaced metadata directly (S5)", () => {
    const r = parse('{"execution_mode":"python","always":true}');
    expect(r.ok && r.skill.metadata).toMatchObject({ execution_mode: "python", always: true });
    expect(r.ok && r.skill.metadata.namespace).toBeUndefined();
  });

  it("defaults execution_mode to prompt and every requires list to empty (S7, S8)", () => {
    const r = parseSkillFile("---\nname: s\ndescription: d\n---\n");
    expect(r.ok && r.skill.metadata).toEqual({
      always: false,
      execution_mode: "prompt",
      requires: { bins: [], any_bins: [], env: [], config: [], python_packages: [] },
      install: [],
      uninstall: [],
    });
  });

  it("reads skill_key as the skill's identifier (S6, X8)", () => {
    const r = parse('{"matrix":{"skill_key":"charts"}}');
    expect(r.ok && [r.skill.id, r.skill.name]).toEqual(["charts", "s"]);
  });

  it("reads all five requires lists (S8)", () => {
    const r = parse(
      '{"matrix":{"requires":{"bins":["jq"],"any_bins":["uv","curl"],"env":["GITHUB_TOKEN"],"config":["github.host"],"python_packages":["matplotlib"]}}}',
    );
    expect(r.ok && r.skill.metadata.requires).toEqual({
      bins: ["jq"],
      any_bins: ["uv", "curl"],
      env: ["GITHUB_TOKEN"],
      config: ["github.host"],
      python_packages: ["matplotlib"],
    });
  });

  it.each(["brew", "pip", "apt", "npm", "go", "uv", "download"])(
    "accepts install kind %s (S9)",
    (kind) => {
      const r = parse(
        `{"matrix":{"install":[{"kind":"${kind}","formula":"x","package":"x","command":"x"}]}}`,
      );
      expect(r.errors).toEqual([]);
    },
  );

  it("accepts shell for uninstall only (S9, S10)", () => {
    expect(parse('{"matrix":{"uninstall":[{"kind":"shell","command":"rm x"}]}}').ok).toBe(true);
    const bad = parse('{"matrix":{"install":[{"kind":"shell","command":"x"}]}}');
    expect(bad.ok).toBe(false);
    expect(bad.errors[0]).toMatchObject({ pointer: "/metadata/matrix/install/0/kind", line: 4 });
  });

  it("keeps declared parameters for the tool schema (S22)", () => {
    const r = parse('{"matrix":{"parameters":[{"name":"query","type":"string"}]}}');
    expect(r.ok && r.skill.metadata.parameters).toEqual([{ name: "query", type: "string" }]);
  });

  it("reads `os` and `always` (S15, S20)", () => {
    const r = parse('{"matrix":{"os":["macos","linux"],"always":true}}');
    expect(r.ok && [r.skill.metadata.os, r.skill.metadata.always]).toEqual([
      ["macos", "linux"],
      true,
    ]);
  });

  it("surfaces the Reference page's metadata.dependencies list (X3)", () => {
    const r = parse('{"dependencies":["ffmpeg on PATH"]}');
    expect(r.ok && r.skill.metadata.dependencies).toEqual(["ffmpeg on PATH"]);
  });
});

describe("parseSkillFile name rules (S3, X1)", () => {
  it("falls back to the folder name when name is omitted", () => {
    const r = parseSkillFile("---\ndescription: d\n---\n", { path: "/skills/my-folder/SKILL.md" });
    expect(r.ok && r.skill.name).toBe("my-folder");
  });

  it("prefers an explicit fallback name over the folder", () => {
    const r = parseSkillFile("---\ndescription: d\n---\n", {
      path: "/a/b/SKILL.md",
      fallbackName: "given",
    });
    expect(r.ok && r.skill.name).toBe("given");
  });

  it("refuses a skill with neither a name nor a folder to name it after", () => {
    const r = parseSkillFile("---\ndescription: d\n---\n");
    expect(r.errors.map((e) => e.code)).toEqual(["skill.name_missing"]);
  });
});

/** Bad input (issue 4): each gets a clear message with a line, never a crash. */
describe("parseSkillFile on bad SKILL.md files", () => {
  it.each([
    ["no-frontmatter", "skill.no_frontmatter", 1],
    ["unclosed-frontmatter", "skill.frontmatter_unclosed", 1],
    ["yaml-python-tag", "skill.yaml_tag", 4],
    ["yaml-js-function", "skill.yaml_tag", 4],
    ["yaml-local-tag", "skill.yaml_tag", 4],
    ["yaml-binary-tag", "skill.yaml_tag", 4],
    ["yaml-alias-bomb", "skill.yaml_alias", undefined],
    ["yaml-syntax", "skill.yaml_syntax", 5],
    ["not-a-mapping", "skill.frontmatter_type", 2],
    ["missing-description", "schema.invalid_type", 1],
    ["metadata-bad-json", "skill.metadata_invalid", 4],
    ["metadata-not-object", "schema.invalid_union", 4],
    ["namespace-not-object", "skill.metadata_invalid", 4],
    ["bad-execution-mode", "schema.invalid_value", 4],
    ["shell-install-kind", "schema.invalid_value", 4],
    ["requires-not-lists", "schema.invalid_type", 7],
    ["always-not-boolean", "schema.invalid_type", 4],
    ["bad-os", "schema.invalid_value", 4],
  ])("%s: %s at line %s", async (name, code, line) => {
    const r = await parseFixture("invalid", name);
    expect(r.ok).toBe(false);
    expect(r.errors[0]).toMatchObject({
      severity: "error",
      code,
      file: join(FIXTURES, "invalid", name, "SKILL.md"),
    });
    expect(r.errors[0]?.line).toBe(line);
    expect(r.errors[0]?.message.length).toBeGreaterThan(20);
    const where = line === undefined ? "" : `:${line}(:\\d+)?`;
    expect(formatSkillIssue(r.errors[0]!)).toMatch(
      new RegExp(`SKILL\\.md${where}: error ${code}: `),
    );
  });

  it("names the tag it refused", async () => {
    const r = await parseFixture("invalid", "yaml-python-tag");
    expect(r.errors[0]?.message).toContain("!!python/object/apply:os.system");
  });

  it("never throws, whatever the bytes", () => {
    const inputs = [
      "---",
      "---\n",
      "---\n---",
      "\uFEFF",
      "---\n: :\n---\n",
      "---\n{{{{\n---\n",
      "\0\0\0",
      "---\n" + "[".repeat(5000) + "\n---\n",
    ];
    for (const text of inputs) expect(() => parseSkillFile(text)).not.toThrow();
  });
});

/** real-world-plugins.md: "warn, do not reject". */
describe("parseSkillFile on skills the platform accepts with warnings", () => {
  it.each([
    ["Non Kebab Name", "skill.name_not_kebab", 2],
    ["extra-keys", "skill.unknown_field", 4],
    ["metadata-mapping-unknown", "skill.metadata_unknown_field", 8],
    ["recipe-without-target", "skill.recipe_target", 4],
  ])("%s loads with %s at line %s", async (name, code, line) => {
    const r = await parseFixture("warn", name);
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.warnings[0]).toMatchObject({ severity: "warning", code, line });
  });

  it("loads a BOM + CRLF file with a clean body", async () => {
    const r = await parseFixture("warn", "crlf-bom");
    expect(r.ok && r.skill.name).toBe("crlf-bom");
    expect(r.ok && r.skill.body).toBe("Body with CRLF line endings.\r\n");
  });

  it("loads a skill without a name under its folder's name", async () => {
    const r = await parseFixture("warn", "no-name");
    expect(r.ok && r.skill.name).toBe("no-name");
  });
});

describe("parseSkillFile on large input", () => {
  it("reads a 10 MB body without looking at it", () => {
    const body = "x".repeat(10 * 1024 * 1024);
    const started = performance.now();
    const r = parseSkillFile(`---\nname: big\ndescription: d\n---\n${body}`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.ok && r.skill.body.length).toBe(body.length);
  });

  it("refuses a frontmatter over the size cap before parsing it", () => {
    const r = parseSkillFile(`---\nname: big\ndescription: ${"d".repeat(300 * 1024)}\n---\n`);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([["skill.frontmatter_too_large", 1]]);
  });

  it("reports deeply nested YAML with a message, not a crash", () => {
    const r = parseSkillFile(
      `---\nname: big\ndescription: d\nmetadata: {"matrix": ${"[".repeat(20_000)}\n---\n`,
    );
    expect(r.ok).toBe(false);
    expect(r.errors[0]?.code).toMatch(/^skill\./);
  });
});
