import { describe, expect, it } from "vitest";
import { CappedLineSplitter, StderrRing } from "../../src/process/stderr-ring.js";

describe("CappedLineSplitter", () => {
  it("cuts lines across chunks, including multi-byte characters split between chunks", () => {
    const splitter = new CappedLineSplitter();
    const bytes = Buffer.from("héllo\nwor");
    expect(splitter.push(bytes.subarray(0, 2))).toEqual([]);
    expect(splitter.push(bytes.subarray(2))).toEqual(["héllo"]);
    expect(splitter.push("ld\r\nnext")).toEqual(["world"]);
    expect(splitter.end()).toEqual(["next"]);
    expect(splitter.end()).toEqual([]);
  });

  it("caps an endless line and counts what it dropped", () => {
    const splitter = new CappedLineSplitter(10);
    for (let i = 0; i < 100; i++) expect(splitter.push("x".repeat(1000))).toEqual([]);
    const [line] = splitter.push("\n");
    expect(line).toBe(`${"x".repeat(10)} …[99990 more chars]`);
  });
});

describe("StderrRing", () => {
  it("keeps only the last lines, oldest first", () => {
    const ring = new StderrRing(3);
    expect(ring.lines()).toEqual([]);
    for (const line of ["a", "b", "c", "d", "e"]) ring.add(line);
    expect(ring.lines()).toEqual(["c", "d", "e"]);
    expect(ring.lines(2)).toEqual(["d", "e"]);
    expect(ring.lines(10)).toEqual(["c", "d", "e"]);
  });

  it("defaults to 200 lines", () => {
    const ring = new StderrRing();
    for (let i = 0; i < 1000; i++) ring.add(String(i));
    const lines = ring.lines();
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe("800");
    expect(lines.at(-1)).toBe("999");
  });
});
