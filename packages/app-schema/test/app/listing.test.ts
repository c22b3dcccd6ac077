import { describe, expect, it } from "vitest";
import { APP_SLUG_PATTERN, bundledExecutasOf, validateAppListing } from "../../src/app/listing.js";

describe("app.json", () => {
  it("reads bundled_executas keyed by handle, or by index when written as an array", () => {
    expect([
      ...bundledExecutasOf({ bundled_executas: { focus: { path: "executas/focus" } } }),
    ]).toEqual([["focus", { path: "executas/focus" }]]);
    expect(
      [
        ...bundledExecutasOf({
          bundled_executas: [{ path: "executas/a" }, { path: "executas/b" }],
        }),
      ].map(([h]) => h),
    ).toEqual(["0", "1"]);
    expect(bundledExecutasOf({}).size).toBe(0);
  });

  it("holds slugs to 3–80 characters without edge hyphens, allowing double hyphens inside", () => {
    for (const ok of ["abc", "a--b", "a".repeat(80), "focus-flow-2"])
      expect(APP_SLUG_PATTERN.test(ok)).toBe(true);
    for (const bad of ["ab", "a".repeat(81), "-ab", "ab-", "Abc", "a_b"])
      expect(APP_SLUG_PATTERN.test(bad)).toBe(false);
  });

  it("warns about a bundled path that leaves the project", () => {
    const result = validateAppListing({
      name: "X",
      slug: "xyz",
      category: "data",
      bundled_executas: { h: { path: "../elsewhere" } },
    });
    expect(result.ok).toBe(true);
    expect(result.issues.map((i) => i.pointer)).toEqual(["/bundled_executas/h/path"]);
  });
});
