import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reverseInvokeId } from "../../src/executa/common.js";
import { parseDescribeResult } from "../../src/executa/describe.js";
import { healthState } from "../../src/executa/health.js";
import { normalizeInvokeResult } from "../../src/executa/invoke.js";
import { toLlmToolSchema } from "../../src/executa/llm-tool-schema.js";
import { ToolDefinitionSchema } from "../../src/executa/manifest.js";

const parameter = fc.record(
  {
    name: fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.constantFrom("__proto__", "constructor"),
    ),
    type: fc.oneof(
      fc.constantFrom("string", "integer", "number", "boolean", "array", "object", "int", "weird"),
      fc.constant(null),
    ),
    description: fc.option(fc.string(), { nil: undefined }),
    required: fc.option(fc.boolean(), { nil: null }),
    default: fc.option(fc.jsonValue(), { nil: undefined }),
    enum: fc.option(fc.array(fc.string()), { nil: undefined }),
    items_type: fc.option(fc.constantFrom("string", "integer"), { nil: undefined }),
  },
  { requiredKeys: ["name"] },
);

describe("properties", () => {
  it("normalizeInvokeResult never throws and always decides success", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const result = normalizeInvokeResult(raw);
        expect(typeof result.success).toBe("boolean");
        if (!result.success) expect(typeof result.error).toBe("string");
      }),
    );
  });

  it("reverseInvokeId and healthState never throw on any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const id = reverseInvokeId(raw);
        expect(id === undefined || (typeof id === "string" && id !== "")).toBe(true);
        expect(["healthy", "starting", "unhealthy"]).toContain(healthState(raw));
      }),
    );
  });

  it("parseDescribeResult never throws on any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const result = parseDescribeResult(raw);
        if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
      }),
    );
  });

  it("toLlmToolSchema lists every parameter once and requires only declared ones", () => {
    fc.assert(
      fc.property(fc.array(parameter, { maxLength: 6 }), (parameters) => {
        const tool = ToolDefinitionSchema.parse({ name: "t", parameters });
        const { schema } = toLlmToolSchema(tool);
        const names = new Set(parameters.map((p) => p.name));
        expect(Object.keys(schema.properties).sort()).toEqual([...names].sort());
        expect(new Set(schema.required).size).toBe(schema.required.length);
        for (const name of schema.required) expect(names.has(name)).toBe(true);
        for (const property of Object.values(schema.properties)) {
          expect(["string", "integer", "number", "boolean", "array", "object"]).toContain(
            property["type"],
          );
          if (property["type"] === "array") expect(property["items"]).toBeDefined();
        }
      }),
    );
  });
});
