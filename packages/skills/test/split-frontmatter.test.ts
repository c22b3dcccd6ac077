import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../src/split-frontmatter.js";

describe("splitFrontmatter", () => {
  it("finds the YAML between the fences and the body after them (S2)", () => {
    const text = "---\nname: a\ndescription: b\n---\n\n# Body\n";
    const split = splitFrontmatter(text);
    expect(split).toMatchObject({
      kind: "ok",
      yaml: "name: a\ndescription: b\n",
      yamlFirstLine: 2,
      bodyFirstLine: 6,
    });
    if (split.kind === "ok") expect(text.slice(split.bodyOffset)).toBe("# Body\n");
  });

  it("accepts a BOM, CRLF line endings and `...` as the closing fence", () => {
    const split = splitFrontmatter("\uFEFF---\r\nname: a\r\n...\r\nBody\r\n");
    expect(split).toMatchObject({ kind: "ok", yaml: "name: a\r\n" });
  });

  it("reports a file that does not start with a fence", () => {
    expect(splitFrontmatter("# Title\n---\nname: a\n---\n")).toEqual({ kind: "no_frontmatter" });
    expect(splitFrontmatter("")).toEqual({ kind: "no_frontmatter" });
  });

  it("reports an opening fence that is never closed", () => {
    expect(splitFrontmatter("---\nname: a\n")).toEqual({ kind: "unclosed", truncated: false });
  });

  it("asks for more text when a prefix ends inside the frontmatter", () => {
    expect(splitFrontmatter("---\nname: a\ndesc", true)).toEqual({
      kind: "unclosed",
      truncated: true,
    });
    // A fence cut in half is not a fence yet.
    expect(splitFrontmatter("---\nname: a\n--", true)).toEqual({
      kind: "unclosed",
      truncated: true,
    });
  });

  it("keeps an empty body empty", () => {
    const split = splitFrontmatter("---\nname: a\n---");
    expect(split.kind).toBe("ok");
    if (split.kind === "ok") expect(split.bodyOffset).toBe(15);
  });
});
