import fc from "fast-check";
import { validateSkillFrontmatter } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { validateCleanFrontmatter } from "../src/frontmatter-fast.js";

const ABSENT = Symbol("absent");

/** Mostly a value the full validator accepts silently, sometimes one it does not, or absent. */
function pick(good: readonly unknown[], bad: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 12 },
    { arbitrary: fc.constantFrom(...bad), weight: 1 },
    { arbitrary: fc.constant(ABSENT), weight: 4 },
  );
}

/** A rare key no schema knows. */
const rare = (value: unknown): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 30 }, fc.constant(value));

function object(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<object> {
  return fc
    .record(fields)
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ABSENT)));
}

const recipe = object({
  kind: pick(["pip", "brew", "apt", "download", "shell"], ["nope", 3]),
  id: pick(["pip", null], [1]),
  package: pick(["matplotlib seaborn", "", null], [2]),
  formula: pick(["jq", "", null], [4]),
  command: pick(["pip uninstall x", "", null], [false]),
  label: pick(["Install", null], [0]),
  bins: pick([["jq"], [], null], [[1], "jq"]),
  os: pick([["macos", "linux"], [], null], [["beos"], "linux", [2]]),
  extra: rare("x"),
});

const metadataFields = object({
  always: pick([true, false, null], ["yes"]),
  skill_key: pick(["key", null], ["", 1]),
  primary_env: pick(["API_KEY", null], [2]),
  emoji: pick(["📈", null], [3]),
  homepage: pick(["https://example.com", null], [{}]),
  category_name: pick(["data-analysis", null], [[]]),
  os: pick([["linux"], [], null], [["linux", "beos"], "linux", [1]]),
  execution_mode: pick(["prompt", "bash", "python", null], ["weird", 1]),
  parameters: rare([]),
  requires: fc.oneof(
    { arbitrary: fc.constantFrom(null, [], "jq"), weight: 1 },
    {
      arbitrary: object({
        bins: pick([["jq"], [], null], ["jq", [1]]),
        any_bins: pick([["a", "b"], null], [[null]]),
        env: pick([["TOKEN"], null], [{}]),
        config: pick([["a.b"]], [1]),
        python_packages: pick([["numpy"], null], ["numpy"]),
        weird: rare([]),
      }),
      weight: 8,
    },
  ),
  install: fc.oneof(
    { arbitrary: fc.array(recipe, { maxLength: 2 }), weight: 8 },
    { arbitrary: fc.constantFrom(null, "pip", {}), weight: 1 },
  ),
  uninstall: fc.oneof(
    { arbitrary: fc.array(recipe, { maxLength: 2 }), weight: 8 },
    { arbitrary: fc.constantFrom(null, 5), weight: 1 },
  ),
  dependencies: rare(["jq"]),
});

const metadata = fc.oneof(
  metadataFields.map((m) => JSON.stringify({ matrix: m })),
  metadataFields.map((m) => ({ matrix: m })),
  metadataFields,
  metadataFields.map((m) => ({ openclaw: m })),
  metadataFields.map((m) => JSON.stringify(m)),
  metadataFields.map((m) => ({ matrix: m, other: 1 })),
  fc.constantFrom(null, "not json", "[]", '{"matrix": 5}', { matrix: null }, [], 7),
  fc.constantFrom('{"__proto__": {"always": true}}', '{"matrix": {"__proto__": 1}}'),
);

const frontmatter = object({
  name: pick(["my-skill", null], ["My Skill", "", 3]),
  description: pick(["Does one thing", "  padded  "], ["", "   ", null, 5]),
  metadata: fc.oneof(metadata, fc.constant(ABSENT)),
  version: pick(["1.0.0", "", null], [2, Infinity]),
  author: pick(["anna", "", null], [1]),
  title: pick(["A Title", "", null], [[]]),
  homepage: rare("https://example.com"),
});

describe("validateCleanFrontmatter", () => {
  it("answers only for frontmatter the full validator passes without issues, with its value", () => {
    let answered = 0;
    let clean = 0;
    fc.assert(
      fc.property(
        frontmatter,
        fc.constantFrom(undefined, "dir-name", "Dir Name"),
        fc.boolean(),
        (raw, dirName, viaJson) => {
          // Through JSON too: a parsed "__proto__" is an own key, as the YAML reader makes it.
          const data = (viaJson ? JSON.parse(JSON.stringify(raw)) : raw) as Record<string, unknown>;
          const full = validateSkillFrontmatter(data, dirName !== undefined ? { dirName } : {});
          const fast = validateCleanFrontmatter(data, dirName);
          if (full.ok && full.issues.length === 0) clean++;
          if (fast === undefined) return;
          answered++;
          expect(full.issues).toEqual([]);
          expect(full.ok).toBe(true);
          expect(fast).toStrictEqual(full.value);
        },
      ),
      { numRuns: 3000 },
    );
    // Both outcomes occur, so the comparison above is exercised.
    expect(answered).toBeGreaterThan(50);
    expect(clean).toBeGreaterThanOrEqual(answered);
  });

  it("answers for the documented one-line JSON metadata form", () => {
    const data = {
      name: "chart-maker",
      description: "Create charts",
      metadata:
        '{"matrix":{"emoji":"📈","execution_mode":"python","requires":{"bins":["jq"]},"install":[{"id":"pip","kind":"pip","package":"matplotlib"}],"uninstall":[{"kind":"pip","command":"pip uninstall matplotlib"}]}}',
    };
    expect(validateCleanFrontmatter(data, "chart-maker")).toStrictEqual(
      validateSkillFrontmatter(data, { dirName: "chart-maker" }).value,
    );
  });

  it("leaves frontmatter with a warning to the full validator", () => {
    expect(validateCleanFrontmatter({ name: "My Skill", description: "d" }, undefined)).toBe(
      undefined,
    );
    expect(validateCleanFrontmatter({ description: "d", extra: 1 }, "x")).toBe(undefined);
  });
});
