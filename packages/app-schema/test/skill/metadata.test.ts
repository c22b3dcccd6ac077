import { describe, expect, it } from "vitest";
import { normalizeSkillMetadata } from "../../src/skill/metadata.js";

describe("normalizeSkillMetadata", () => {
  it("parses the documented one-line JSON string and unwraps matrix", () => {
    expect(normalizeSkillMetadata('{"matrix":{"execution_mode":"python"}}')).toEqual({
      value: { execution_mode: "python" },
      namespace: "matrix",
      source: "json-string",
    });
  });

  it("accepts the mapping a YAML parser makes of it", () => {
    expect(normalizeSkillMetadata({ nexus: { always: true } })).toEqual({
      value: { always: true },
      namespace: "nexus",
      source: "mapping",
    });
  });

  it("unwraps matrix before openclaw before nexus", () => {
    const both = { nexus: { emoji: "n" }, openclaw: { emoji: "o" }, matrix: { emoji: "m" } };
    expect(normalizeSkillMetadata(both).value).toEqual({ emoji: "m" });
    expect(
      normalizeSkillMetadata({ nexus: { emoji: "n" }, openclaw: { emoji: "o" } }).value,
    ).toEqual({ emoji: "o" });
  });

  it("consumes an object without a namespace directly", () => {
    expect(normalizeSkillMetadata({ execution_mode: "bash" })).toEqual({
      value: { execution_mode: "bash" },
      source: "mapping",
    });
    expect(normalizeSkillMetadata(undefined)).toEqual({ value: undefined, source: "absent" });
  });

  it("explains unparsable JSON and non-objects instead of throwing", () => {
    expect(normalizeSkillMetadata("{matrix: 1}").problem).toMatch(/^metadata is not valid JSON/);
    expect(normalizeSkillMetadata("42").problem).toMatch(/must be a JSON object/);
    expect(normalizeSkillMetadata({ matrix: [1] }).problem).toMatch(
      /metadata.matrix must be an object/,
    );
  });
});
