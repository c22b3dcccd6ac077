import { describe, expect, it } from "vitest";
import { bundledHandle, parseToolRef, toolRefAllows } from "../../src/app/tool-refs.js";

describe("parseToolRef", () => {
  it("reads every documented form", () => {
    expect(parseToolRef("required:*")).toEqual({ kind: "all", list: "required" });
    expect(parseToolRef("optional:*")).toEqual({ kind: "all", list: "optional" });
    expect(parseToolRef("required:tool-a")).toEqual({
      kind: "listed",
      list: "required",
      toolId: "tool-a",
    });
    expect(parseToolRef("required:bundled:foo")).toEqual({
      kind: "listed",
      list: "required",
      toolId: "bundled:foo",
    });
    expect(parseToolRef("bundled:foo")).toEqual({ kind: "bare", toolId: "bundled:foo" });
    expect(parseToolRef("web_search")).toEqual({ kind: "bare", toolId: "web_search" });
  });

  it("rejects empty refs", () => {
    expect(parseToolRef("")).toBeUndefined();
    expect(parseToolRef("required:")).toBeUndefined();
    expect(parseToolRef("*")).toBeUndefined();
  });
});

describe("toolRefAllows (the runtime rule)", () => {
  it("allows everything when the list is absent or empty", () => {
    expect(toolRefAllows(undefined, "t", "optional")).toBe(true);
    expect(toolRefAllows([], "t", "required")).toBe(true);
  });

  it("matches list wildcards, bare ids and any <prefix>:<id>", () => {
    expect(toolRefAllows(["required:*"], "t", "required")).toBe(true);
    expect(toolRefAllows(["required:*"], "t", "optional")).toBe(false);
    expect(toolRefAllows(["t"], "t", "optional")).toBe(true);
    expect(toolRefAllows(["whatever:t"], "t", "optional")).toBe(true);
    expect(toolRefAllows(["u"], "t", "required")).toBe(false);
  });
});

describe("bundledHandle", () => {
  it("extracts the handle of bundled:<handle> refs only", () => {
    expect(bundledHandle("bundled:focus-session")).toBe("focus-session");
    expect(bundledHandle("bundled:")).toBeUndefined();
    expect(bundledHandle("tool-acme-x-1")).toBeUndefined();
  });
});
