// The smoke gate's arithmetic: a ratio fails only past SLACK× its recorded one (floored at 1×),
// a re-run folds in by the best ratio, and recording keeps the worst.
import { describe, expect, it } from "vitest";
import { SLACK, checkRatios, mergeBest, mergeWorst } from "../../bench/report/smoke-check.js";

describe("smoke check", () => {
  it("fails a ratio only past SLACK× the recorded, with a 1× floor", () => {
    const lines = checkRatios(
      { "a/x": 3.9, "a/y": 4.1, "b/z": 1.9, "b/new": 50 },
      { "a/x": 2, "a/y": 2, "b/z": 0.2 },
    );
    expect(SLACK).toBe(2);
    expect(lines.map((l) => [l.key, l.ok])).toEqual([
      ["a/x", true],
      ["a/y", false],
      ["b/z", true],
      ["b/new", true],
    ]);
    expect(lines.find((l) => l.key === "b/new")?.recorded).toBeUndefined();
  });

  it("a confirming run keeps each key's best, recording keeps its worst", () => {
    expect(mergeBest({ "a/x": 5, "a/y": 1 }, { "a/x": 2, "a/y": 3, "a/z": 4 })).toEqual({
      "a/x": 2,
      "a/y": 1,
      "a/z": 4,
    });
    expect(mergeWorst({ "b/x": 5, "a/y": 1 }, { "b/x": 2, "a/y": 3 })).toEqual({
      "a/y": 3,
      "b/x": 5,
    });
  });
});
