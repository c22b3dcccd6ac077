import { describe, expect, it } from "vitest";
import { globToRegExp } from "../../src/validate/layers/dev-fixtures.js";

describe("globToRegExp", () => {
  it.each([
    ["fixtures/*.jsonl", "fixtures/a.jsonl", true],
    ["fixtures/*.jsonl", "fixtures/sub/a.jsonl", false],
    ["fixtures/**/*.jsonl", "fixtures/a.jsonl", true],
    ["fixtures/**/*.jsonl", "fixtures/x/y/a.jsonl", true],
    ["fixtures/run-?.jsonl", "fixtures/run-1.jsonl", true],
    ["fixtures/run-?.jsonl", "fixtures/run-10.jsonl", false],
    ["fixtures/a+b.jsonl", "fixtures/a+b.jsonl", true],
    ["fixtures/a.jsonl", "fixtures/aXjsonl", false],
    ["**", "any/thing", true],
  ])("%s against %s → %s", (glob, file, matches) => {
    expect(globToRegExp(glob).test(file)).toBe(matches);
  });
});
