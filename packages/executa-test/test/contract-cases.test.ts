import { describe, expect, it } from "vitest";
import {
  contractCases,
  sampleValue,
  toolContractCases,
  wrongTypeValue,
} from "@anna-ai/executa-test";

describe("contract cases", () => {
  it("builds valid arguments from defaults, enums and types, then one case per rule", () => {
    const cases = toolContractCases({
      name: "search",
      parameters: [
        { name: "query", type: "string" },
        { name: "mode", type: "string", enum: ["fast", "deep"] },
        { name: "limit", type: "integer", required: false, default: 5 },
        { name: "tags", type: "array", items_type: "string", required: false },
      ],
    });
    expect(cases.map((c) => [c.kind, c.expect, c.arguments])).toEqual([
      ["valid", "accepted", { query: "example", mode: "fast" }],
      ["valid", "accepted", { query: "example", mode: "fast", limit: 5, tags: ["example"] }],
      ["missing_required", "rejected", { mode: "fast", limit: 5, tags: ["example"] }],
      ["missing_required", "rejected", { query: "example", limit: 5, tags: ["example"] }],
      ["wrong_type", "rejected", { query: 12345, mode: "fast", limit: 5, tags: ["example"] }],
      ["wrong_type", "rejected", { query: "example", mode: 12345, limit: 5, tags: ["example"] }],
      [
        "wrong_type",
        "rejected",
        { query: "example", mode: "fast", limit: "not a number", tags: ["example"] },
      ],
      [
        "wrong_type",
        "rejected",
        { query: "example", mode: "fast", limit: 5, tags: "not an array" },
      ],
    ]);
    expect(cases[2]?.title).toBe('search: missing required "query"');
    expect(cases[6]?.title).toBe('search: "limit" of the wrong type (string for integer)');
  });

  it("reads JSON-Schema parameters, their bounds, and samples the author gives", () => {
    const manifest = {
      tools: [
        {
          name: "roll",
          parameters: {
            type: "object" as const,
            properties: {
              sides: { type: "integer", minimum: 4 },
              label: { type: "string", minLength: 10 },
              seed: { description: "any type" },
            },
            required: ["sides"],
          },
        },
      ],
    };
    const [requiredOnly, every] = contractCases(manifest, {
      samples: { roll: { label: "d20 roll!!" } },
    });
    expect(requiredOnly?.arguments).toEqual({ sides: 4 });
    expect(every?.arguments).toEqual({ sides: 4, label: "d20 roll!!", seed: "example" });
    // A parameter with no declared type takes any value: no wrong-type case for it.
    expect(contractCases(manifest).filter((c) => c.parameter === "seed")).toEqual([]);
  });

  it("gives a tool without parameters one valid case", () => {
    expect(contractCases({ tools: [{ name: "ping" }] })).toEqual([
      {
        title: "ping: required parameters only",
        tool: "ping",
        kind: "valid",
        arguments: {},
        expect: "accepted",
      },
    ]);
  });

  it("samples and breaks each JSON type", () => {
    expect(sampleValue({ type: "number", maximum: 0.5 })).toBe(0.5);
    expect(sampleValue({ type: "boolean" })).toBe(true);
    expect(sampleValue({ type: "object" })).toEqual({});
    expect(sampleValue({ type: "string", default: null, enum: ["a"] })).toBe("a");
    expect(wrongTypeValue({ type: "boolean" })).toBe("not a boolean");
    expect(wrongTypeValue({ type: "object" })).toBe("not an object");
  });
});
