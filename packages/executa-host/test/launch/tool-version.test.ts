import { describe, expect, it } from "vitest";
import {
  compareVersions,
  meetsRequiresPython,
  probeVersion,
} from "../../src/launch/tool-version.js";

describe("compareVersions", () => {
  it.each([
    ["1.19.8", "1.21", -1],
    ["1.22", "1.22.0", 0],
    ["3.12.1", "3.12", 1],
    ["1.9", "1.10", -1],
  ])("orders %s against %s", (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

describe("meetsRequiresPython", () => {
  it.each([
    ["3.11.7", ">=3.10", true],
    ["3.11.7", ">=3.12", false],
    ["3.11.7", ">=3.10,<4", true],
    ["3.11.7", ">= 3.13, < 4.0", false],
    ["3.11.7", "~=3.11", true],
    ["3.11.7", ">3.11", true],
    ["3.11.0", ">3.11", false],
    ["3.11.7", "==3.11.*", true],
    ["3.11.7", "==3.12.*", false],
    ["3.11.7", "<3.10", true],
    ["3.11.7", "garbage", true],
  ])("Python %s against %j → %s", (installed, spec, ok) => {
    expect(meetsRequiresPython(installed, spec)).toBe(ok);
  });
});

describe("probeVersion", () => {
  it("reads the version the running Node reports", async () => {
    expect(await probeVersion(process.execPath)).toBe(process.versions.node);
  });

  it("answers undefined for a program that does not exist", async () => {
    expect(await probeVersion("/nonexistent/tool-that-is-not-here")).toBeUndefined();
  });
});
