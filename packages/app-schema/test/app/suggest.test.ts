import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, suggestClosest } from "../../src/app/suggest.js";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("stops early past the limit", () => {
    expect(editDistance("abcdef", "uvwxyz", 1)).toBe(2);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});

describe("suggestClosest", () => {
  it("returns distance-1 candidates by default, nearest first, never the value itself", () => {
    expect(suggestClosest("tool-a-1234", ["tool-a-1235", "tool-b-9999", "tool-a-1234"])).toEqual([
      "tool-a-1235",
    ]);
    expect(suggestClosest("permisions", ["permissions", "tags"], 2)).toEqual(["permissions"]);
    expect(suggestClosest("zzz", ["permissions"])).toEqual([]);
  });

  it("phrases a suggestion, preferring a case-only difference", () => {
    expect(didYouMean("Storage.Read", ["storage.read", "storage.reed"])).toBe(
      ' Did you mean "storage.read"?',
    );
    expect(didYouMean("completely-off", ["storage.read"])).toBe("");
  });
});
