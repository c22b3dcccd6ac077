import { describe, expect, it } from "vitest";
import { ArgumentError, normalizeParameters, p, validateArguments } from "../src/index.js";

describe("p helpers", () => {
  it("write the wire spec with required defaulting to true and arrays carrying items", () => {
    const params = normalizeParameters({
      city: p.string({ description: "City" }),
      days: p.integer({ required: false }),
      units: p.string({ enum: ["metric", "imperial"], default: "metric" }),
      tags: p.array(p.string()),
      raw: p.object({ required: false }),
    });
    expect(params.map((x) => x.spec)).toEqual([
      { name: "city", type: "string", description: "City", required: true },
      { name: "days", type: "integer", required: false },
      {
        name: "units",
        type: "string",
        required: false,
        default: "metric",
        enum: ["metric", "imperial"],
      },
      { name: "tags", type: "array", required: true, items: { type: "string" } },
      { name: "raw", type: "object", required: false },
    ]);
  });

  it("accepts a raw manifest list, reading items and items_type", () => {
    const params = normalizeParameters([
      { name: "a", type: "array", items_type: "integer" },
      { name: "b", type: "array", items: { type: "boolean" }, required: false },
      { name: "c", type: "array" },
    ]);
    expect(params.map((x) => x.itemType)).toEqual(["integer", "boolean", "string"]);
    expect(params.map((x) => x.spec.required)).toEqual([true, false, true]);
  });
});

describe("validateArguments", () => {
  const params = normalizeParameters({
    text: p.string(),
    count: p.integer({ default: 2 }),
    ratio: p.number({ required: false }),
    mode: p.string({ enum: ["a", "b"], required: false }),
    ids: p.array(p.integer(), { required: false }),
    flag: p.boolean({ required: false }),
  });

  it("fills defaults and keeps given values", () => {
    expect(validateArguments(params, { text: "x" })).toEqual({ text: "x", count: 2 });
    expect(
      validateArguments(params, { text: "x", count: 5, ratio: 0.5, ids: [1, 2], flag: false }),
    ).toEqual({
      text: "x",
      count: 5,
      ratio: 0.5,
      ids: [1, 2],
      flag: false,
    });
  });

  it("treats null for an optional argument as absent", () => {
    expect(validateArguments(params, { text: "x", ratio: null, count: null })).toEqual({
      text: "x",
      count: 2,
    });
  });

  it.each([
    [{}, "text", "missing required argument 'text'"],
    [{ text: null }, "text", "missing required argument 'text'"],
    [{ text: 3 }, "text", "argument 'text' must be a string"],
    [{ text: "x", count: 1.5 }, "count", "argument 'count' must be an integer"],
    [{ text: "x", ratio: "1" }, "ratio", "argument 'ratio' must be a number"],
    [{ text: "x", mode: "c" }, "mode", `argument 'mode' must be one of "a", "b"`],
    [{ text: "x", ids: [1, "2"] }, "ids", "argument 'ids[1]' must be an integer"],
    [{ text: "x", flag: "yes" }, "flag", "argument 'flag' must be a boolean"],
    [{ text: "x", extra: 1 }, "extra", "unexpected argument 'extra'"],
  ])("rejects %j naming %s", (args, argument, message) => {
    let caught: unknown;
    try {
      validateArguments(params, args);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgumentError);
    expect((caught as ArgumentError).argument).toBe(argument);
    expect((caught as ArgumentError).message).toContain(message);
  });

  it("lets the platform's extra keys through only when allowed", () => {
    expect(validateArguments(params, { text: "x", account: "work" }, ["account"])).toMatchObject({
      account: "work",
    });
    expect(() => validateArguments(params, { text: "x", account: "work" })).toThrow(ArgumentError);
  });

  it("does not share a default object between calls", () => {
    const withObject = normalizeParameters({ opts: p.object({ default: { a: 1 } }) });
    const first = validateArguments(withObject, {});
    (first.opts as { a: number }).a = 2;
    expect(validateArguments(withObject, {})).toEqual({ opts: { a: 1 } });
  });
});
