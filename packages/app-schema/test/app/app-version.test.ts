import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appVersionProblem, compareAppVersions, isAppVersion } from "../../src/app/app-version.js";

describe("app versions", () => {
  it("match the spec's pattern: X.Y.Z with an optional prerelease, no +build", () => {
    for (const ok of ["0.0.1", "1.2.3", "1.2.0-beta.1", "1.0.0-..", "1.0.0-01", "10.20.30"])
      expect(isAppVersion(ok)).toBe(true);
    for (const bad of ["01.0.0", "1.0", "1.0.0+b", "1.0.0-", "v1.0.0", "1.0.0-beta_1"])
      expect(isAppVersion(bad)).toBe(false);
  });

  it("accept and reject exactly as the spec's example table says", () => {
    for (const next of ["1.0.1", "1.1.0", "2.0.0"])
      expect(appVersionProblem(next, ["1.0.0"])).toBeUndefined();
    expect(appVersionProblem("1.0.0", ["1.0.0"])).toBe("version 1.0.0 already exists; bump it");
    expect(appVersionProblem("0.9.0", ["1.0.0"])).toBe(
      "version 0.9.0 must be greater than the largest existing version, 1.0.0",
    );
    for (const next of ["1.2.0-beta.2", "1.2.0", "1.3.0"])
      expect(appVersionProblem(next, ["1.2.0-beta.1"])).toBeUndefined();
    for (const next of ["1.2.0-alpha.9", "1.1.9"])
      expect(appVersionProblem(next, ["1.2.0-beta.1"])).toMatch(/must be greater/);
  });

  it("order prereleases by SemVer §11", () => {
    const sorted = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
    ];
    for (let i = 1; i < sorted.length; i++)
      expect(compareAppVersions(sorted[i - 1] ?? "", sorted[i] ?? "")).toBeLessThan(0);
  });

  it("compare numerically beyond safe integers and antisymmetrically", () => {
    expect(compareAppVersions("1.0.9007199254740993", "1.0.9007199254740992")).toBe(1);
    const version = fc
      .tuple(
        fc.nat(20),
        fc.nat(20),
        fc.nat(20),
        fc.option(fc.constantFrom("alpha", "beta.1", "rc.2", "1")),
      )
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre === null ? "" : `-${pre}`}`);
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(Math.sign(compareAppVersions(a, b))).toBe(-Math.sign(compareAppVersions(b, a)));
      }),
    );
  });

  it("names the problem with a version string that does not parse", () => {
    expect(appVersionProblem("1.0.0+build.5", [])).toMatch(/\+build metadata is not supported/);
  });
});
