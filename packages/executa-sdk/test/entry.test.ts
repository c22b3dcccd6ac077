import { describe, expect, it } from "vitest";
import * as entry from "../src/entry.js";
import * as index from "../src/index.js";

describe("package entry", () => {
  it("exports exactly the runtime values of the index, so bundled and modular loads match", () => {
    expect(Object.keys(entry).sort()).toEqual(Object.keys(index).sort());
  });

  it("falls back to the compiled modules when no bundle sits next to it", () => {
    expect(entry.definePlugin).toBe(index.definePlugin);
  });
});
