import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUNDLE_PATH_JSON_PATTERN,
  bundlePathFile,
  bundlePathProblem,
} from "../../src/app/ui-bundle.js";

describe("bundle paths", () => {
  it("check only the part before ? or #", () => {
    expect(bundlePathProblem("index.html#/chart")).toBeUndefined();
    expect(bundlePathProblem("index.html?next=../x//y")).toBeUndefined();
    expect(bundlePathProblem("a/../b.html")).toBe('must not contain ".."');
    expect(bundlePathProblem("#/route")).toBe("needs a file path before any ? or #");
    expect(bundlePathFile("views/main.html?x=1#/a")).toBe("views/main.html");
  });

  it("emit a JSON Schema pattern that agrees with the check", () => {
    const pattern = new RegExp(BUNDLE_PATH_JSON_PATTERN);
    const text = fc.string({
      unit: fc.constantFrom("a", "Z", "0", "_", ".", "/", "-", "\\", " ", "?", "#", "é"),
    });
    fc.assert(
      fc.property(text, (value) => {
        expect(pattern.test(value)).toBe(bundlePathProblem(value) === undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
