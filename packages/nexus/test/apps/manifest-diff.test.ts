// The reviewer's structural diff: paths as JSON Pointers, plain arrays as sets.
import { describe, expect, it } from "vitest";
import { jsonDiff } from "../../src/apps/manifest-diff.js";

describe("jsonDiff", () => {
  it("reports added, removed and changed paths, escaping ~ and / in keys", () => {
    expect(
      jsonDiff(
        { a: 1, b: { c: true, "x/y": 1 }, gone: null },
        { a: 2, b: { c: true, "x/y": 1, "m~n": "new" }, extra: [1] },
      ),
    ).toEqual({
      added: [
        { path: "/b/m~0n", value: "new" },
        { path: "/extra", value: [1] },
      ],
      removed: [{ path: "/gone", value: null }],
      changed: [{ path: "/a", from: 1, to: 2 }],
    });
  });

  it("compares plain arrays as multisets and object arrays by position", () => {
    expect(jsonDiff({ p: ["a", "b", "c"] }, { p: ["a", "x", "b", "c", "c"] })).toEqual({
      added: [
        { path: "/p/1", value: "x" },
        { path: "/p/4", value: "c" },
      ],
      removed: [],
      changed: [],
    });
    expect(
      jsonDiff({ v: [{ name: "a", w: 1 }] }, { v: [{ name: "a", w: 2 }, { name: "b" }] }),
    ).toEqual({
      added: [{ path: "/v/1", value: { name: "b" } }],
      removed: [],
      changed: [{ path: "/v/0/w", from: 1, to: 2 }],
    });
  });

  it("finds no difference between equal documents and a type change as one change", () => {
    expect(jsonDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
    expect(jsonDiff({ a: { b: 1 } }, { a: [1] }).changed).toEqual([
      { path: "/a", from: { b: 1 }, to: [1] },
    ]);
  });
});
