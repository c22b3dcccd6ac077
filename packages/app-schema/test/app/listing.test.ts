import { describe, expect, it } from "vitest";
import { APP_SLUG_PATTERN, bundledExecutasOf, validateAppListing } from "../../src/app/listing.js";
import { APP_VERSION_PATTERN } from "../../src/app/app-version.js";

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

  it("accepts the listing keys the publish step reads, without an unknown-field warning", () => {
    const result = validateAppListing({
      name: "X",
      slug: "xyz",
      category: "data",
      version: "1.4.0-beta.2",
      pricing_model: "free",
      changelog: "First release.",
      logo_file: "assets/logo.png",
    });
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([]);
  });

  it("checks version as an app version (SemVer without +build) and says what a valid one looks like", () => {
    for (const bad of ["1.0", "v1.2.3", "01.2.3", "1.2.3-", "latest", "1.0.0+build.1"]) {
      const result = validateAppListing({ name: "X", slug: "xyz", category: "data", version: bad });
      expect(result.ok, bad).toBe(false);
      expect(result.issues[0]?.pointer).toBe("/version");
      expect(result.issues[0]?.message).toContain(
        'is not a version: use X.Y.Z with an optional -prerelease (e.g. "1.2.0"',
      );
    }
    for (const ok of ["0.0.0", "10.20.30", "1.0.0-alpha.1"])
      expect(APP_VERSION_PATTERN.test(ok), ok).toBe(true);
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
