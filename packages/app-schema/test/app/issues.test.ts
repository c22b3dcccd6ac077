import { describe, expect, it } from "vitest";
import {
  appIssue,
  errorsOf,
  formatAppIssue,
  hasErrors,
  issuePointer,
  warningsOf,
} from "../../src/app/issues.js";

describe("issuePointer", () => {
  it("builds RFC 6901 pointers, escaping ~ and /", () => {
    expect(issuePointer([])).toBe("");
    expect(issuePointer(["ui", "views", 0, "name"])).toBe("/ui/views/0/name");
    expect(issuePointer(["dev", "mocks", "a/b~c"])).toBe("/dev/mocks/a~1b~0c");
    expect(issuePointer(["csp_overrides", "script-src", 2])).toBe("/csp_overrides/script-src/2");
  });

  it("keeps an empty key as an empty segment", () => {
    expect(issuePointer(["a", ""])).toBe("/a/");
  });
});

describe("formatAppIssue", () => {
  it("prints severity, pointer and message, and the spec's text on a second line", () => {
    const plain = appIssue("warning", "x", ["tags", 1], "is listed twice");
    expect(formatAppIssue(plain)).toBe("warning /tags/1: is listed twice");
    const quoted = appIssue(
      "error",
      "ui.views.count",
      ["ui", "views"],
      "needs 1–16",
      "ui.views 数量必须在 1..16 之间",
    );
    expect(formatAppIssue(quoted)).toBe(
      "error /ui/views: needs 1–16\n  spec: ui.views 数量必须在 1..16 之间",
    );
    expect(formatAppIssue(appIssue("error", "x", [], "bad"))).toBe("error /: bad");
  });
});

describe("severity helpers", () => {
  it("split errors from warnings", () => {
    const issues = [appIssue("error", "a", [], "e"), appIssue("warning", "b", [], "w")];
    expect(errorsOf(issues).map((i) => i.code)).toEqual(["a"]);
    expect(warningsOf(issues).map((i) => i.code)).toEqual(["b"]);
    expect(hasErrors(issues)).toBe(true);
    expect(hasErrors(warningsOf(issues))).toBe(false);
  });
});
