import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { IssueSink } from "../src/issues.js";
import { readFrontmatterYaml } from "../src/read-yaml.js";

function read(yaml: string) {
  const sink = new IssueSink("SKILL.md");
  const result = readFrontmatterYaml(yaml, 2, sink);
  return { ...result, errors: sink.errors, warnings: sink.warnings };
}

describe("readFrontmatterYaml", () => {
  it("reads the spec's one-line JSON metadata as an object (X5)", () => {
    const r = read('name: a\ndescription: "b: c"\nmetadata: {"matrix":{"emoji":"📈"}}\n');
    expect(r.data).toEqual({
      name: "a",
      description: "b: c",
      metadata: { matrix: { emoji: "📈" } },
    });
    expect(r.lineOf(["metadata", "matrix", "emoji"])).toBe(4);
  });

  it("gives file lines for nested keys of block YAML", () => {
    const r = read("name: a\nmetadata:\n  matrix:\n    execution_mode: bash\n");
    expect(r.lineOf(["metadata", "matrix", "execution_mode"])).toBe(5);
  });

  it.each([
    ["!!python/object/apply:os.system ['ls']", "!!python/object/apply:os.system"],
    ['!!js/function "function () {}"', "!!js/function"],
    ["!!binary aGVsbG8=", "!!binary"],
    ["!!timestamp 2001-12-14", "!!timestamp"],
    ["!!set {a, b}", "!!set"],
    ["!include other.yaml", "!include"],
  ])("refuses the tag in `x: %s` with its line and column", (value, tag) => {
    const r = read(`name: a\nx: ${value}\n`);
    expect(r.data).toBeUndefined();
    expect(r.errors).toEqual([
      expect.objectContaining({
        code: "skill.yaml_tag",
        line: 3,
        column: 4,
        message: expect.stringContaining(tag),
      }),
    ]);
  });

  it("keeps core-schema tags, which only say what the text already is", () => {
    expect(read("a: !!str 3\nb: !!int 4\n").data).toEqual({ a: "3", b: 4 });
  });

  it("does not turn YAML 1.1 words or dates into booleans or Date objects", () => {
    expect(read("a: yes\nb: 2001-12-14\nc: on\n").data).toEqual({
      a: "yes",
      b: "2001-12-14",
      c: "on",
    });
  });

  it("refuses alias expansion past the bound (billion laughs)", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (const [prev, next] of [
      ["a", "b"],
      ["b", "c"],
      ["c", "d"],
      ["d", "e"],
    ] as const) {
      lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(",")}]`);
    }
    const r = read(lines.join("\n") + "\n");
    expect(r.data).toBeUndefined();
    expect(r.errors[0]?.code).toBe("skill.yaml_alias");
  });

  it("refuses a self-referencing alias instead of building a cycle", () => {
    const r = read("x: &x [*x]\n");
    expect(r.data).toBeUndefined();
    expect(r.errors.map((e) => e.code)).toContain("skill.yaml_alias");
  });

  it("keeps small alias use, which safe YAML loaders accept", () => {
    expect(read("a: &a [1, 2]\nb: *a\n").data).toEqual({ a: [1, 2], b: [1, 2] });
  });

  it("reports syntax errors with the file line", () => {
    const r = read('name: a\nmetadata: {"matrix": {"emoji": "x"\n');
    expect(r.data).toBeUndefined();
    expect(r.errors[0]).toMatchObject({ code: "skill.yaml_syntax", line: expect.any(Number) });
    expect(r.errors).toHaveLength(1);
  });

  it("warns about a duplicate key and keeps the last value, as safe YAML loaders do", () => {
    const r = read("name: a\nname: b\n");
    expect(r.data).toEqual({ name: "b" });
    expect(r.warnings).toEqual([expect.objectContaining({ code: "skill.duplicate_key", line: 3 })]);
  });

  it("refuses a frontmatter that is a list or a scalar", () => {
    expect(read("- a\n- b\n").errors[0]?.code).toBe("skill.frontmatter_type");
    expect(read("just text\n").errors[0]?.code).toBe("skill.frontmatter_type");
  });

  it("reads an empty frontmatter as no keys", () => {
    expect(read("").data).toEqual({});
    expect(read("# only a comment\n").data).toEqual({});
  });

  it("never pollutes Object.prototype through __proto__ keys", () => {
    const a = read('__proto__: {"polluted": 1}\n');
    const b = read('metadata: {"__proto__": {"polluted": 1}}\n');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.hasOwn(a.data ?? {}, "__proto__")).toBe(true);
    expect(b.data?.["metadata"]).toBeDefined();
  });

  it("reads every simple frontmatter exactly as the YAML parser does (fast path property)", () => {
    const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/);
    const scalar = fc.oneof(
      fc.string({ maxLength: 30 }).map((s) => s.replace(/[\n\r]/g, " ")),
      fc.constantFrom(
        "true",
        "False",
        "null",
        "~",
        "",
        "yes",
        "1.5",
        "-3",
        "0x1f",
        ".inf",
        "a: b",
        "a #b",
        "#x",
      ),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
      fc.string({ maxLength: 20 }).map((s) => `'${s.replace(/[\n\r]/g, " ").replace(/'/g, "''")}'`),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, scalar), { selector: ([k]) => k, maxLength: 6 }),
        (pairs) => {
          const yaml = pairs.map(([k, v]) => (v === "" ? `${k}:` : `${k}: ${v}`)).join("\n") + "\n";
          let expected: unknown;
          try {
            expected =
              parse(yaml, {
                schema: "core",
                resolveKnownTags: false,
                uniqueKeys: false,
                logLevel: "silent",
              }) ?? {};
          } catch {
            return; // invalid YAML: the full path reports it; nothing to compare
          }
          const r = read(yaml);
          if (r.errors.length > 0) return;
          expect(r.data).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads nested block mappings and sequences exactly as the YAML parser does (fast path property)", () => {
    const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,6}$/);
    const word = fc.stringMatching(/^[a-z][a-z0-9 ._-]{0,8}$/);
    const scalar = fc.oneof(
      word,
      fc.constantFrom(
        "true",
        "null",
        "~",
        "yes",
        "12",
        "a: b",
        "a #b",
        "[a, b]",
        "[1, x]",
        "[]",
        "{}",
        "'q''s'",
        '"d"',
      ),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    );
    type Tree =
      | { kind: "map"; entries: [string, Tree][] }
      | { kind: "seq"; items: string[] }
      | { kind: "scalar"; text: string };
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        scalar.map((text): Tree => ({ kind: "scalar", text })),
        fc
          .array(scalar, { minLength: 1, maxLength: 3 })
          .map((items): Tree => ({ kind: "seq", items })),
        fc
          .uniqueArray(fc.tuple(key, tie("node")), {
            selector: ([k]) => k,
            minLength: 1,
            maxLength: 4,
          })
          .map((entries): Tree => ({ kind: "map", entries })),
      ),
    })).node;
    const render = (
      entries: [string, Tree][],
      indent: string,
      step: string,
      seqIndent: boolean,
    ): string[] =>
      entries.flatMap(([k, v]) => {
        if (v.kind === "scalar") return [`${indent}${k}: ${v.text}`];
        if (v.kind === "seq") {
          const at = seqIndent ? indent + step : indent;
          return [`${indent}${k}:`, ...v.items.map((item) => `${at}- ${item}`)];
        }
        return [`${indent}${k}:`, ...render(v.entries, indent + step, step, seqIndent)];
      });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, tree), { selector: ([k]) => k, maxLength: 5 }),
        fc.constantFrom("  ", "    "),
        fc.boolean(),
        (entries, step, seqIndent) => {
          const yaml = render(entries, "", step, seqIndent).join("\n") + "\n";
          let expected: unknown;
          try {
            expected =
              parse(yaml, {
                schema: "core",
                resolveKnownTags: false,
                uniqueKeys: false,
                logLevel: "silent",
              }) ?? {};
          } catch {
            return;
          }
          const r = read(yaml);
          if (r.errors.length > 0) return;
          expect(r.data).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("readFrontmatterYaml line numbers", () => {
  it("gives the same key lines on the fast path and through the parser", () => {
    const doc =
      "name: a\nmetadata:\n  matrix:\n    requires:\n      bins:\n        - jq\n        - curl\n    os: [linux]\n";
    // A comment after a value is outside the fast path's subset: the parser reads this one.
    const viaParser = read(doc + "extra: 1 # comment\n");
    const fast = read(doc);
    for (const path of [
      ["metadata"],
      ["metadata", "matrix", "requires", "bins"],
      ["metadata", "matrix", "requires", "bins", 1],
      ["metadata", "matrix", "os"],
      ["metadata", "matrix", "os", 0],
    ]) {
      expect([path, fast.lineOf(path)]).toEqual([path, viaParser.lineOf(path)]);
    }
    expect(fast.lineOf(["metadata", "matrix", "requires", "bins", 1])).toBe(8);
  });
});
