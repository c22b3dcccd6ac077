import { describe, expect, it } from "vitest";
import { callResultOf, toolAnswerOf } from "../../src/mcp/call-result.js";
import { mapInputSchema, UnmappableSchemaError } from "../../src/mcp/schema-to-parameters.js";

describe("mapInputSchema", () => {
  it("maps types, enums, defaults, descriptions and required to a parameter list", () => {
    expect(
      mapInputSchema({
        type: "object",
        properties: {
          city: { type: "string", title: "City name" },
          days: { type: "integer", default: 3, description: "How many days" },
          units: { type: "string", enum: ["metric", "imperial"] },
          hours: { type: "array", items: { type: "number" } },
        },
        required: ["city"],
      }),
    ).toEqual({
      kind: "list",
      parameters: [
        { name: "city", type: "string", required: true, description: "City name" },
        {
          name: "days",
          type: "integer",
          required: false,
          default: 3,
          description: "How many days",
        },
        { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
        { name: "hours", type: "array", required: false, items: { type: "number" } },
      ],
    });
  });

  it.each([
    [{ a: { type: ["string", "null"] } }, 'property "a" has type ["string","null"]'],
    [{ a: { type: "object", properties: {} } }, 'property "a" uses "properties"'],
    [{ a: { type: "object" } }, 'property "a" is an object'],
    [{ a: { $ref: "#/defs/x" } }, 'property "a" uses "$ref"'],
    [{ a: { type: "array" } }, 'array property "a" declares no items'],
  ])("passes %j through as JSON Schema and says why", (properties, reason) => {
    const schema = { type: "object", properties };
    const mapped = mapInputSchema(schema);
    expect(mapped).toMatchObject({ kind: "schema", parameters: schema });
    expect(mapped.kind === "schema" ? mapped.reason : "").toContain(reason);
  });

  it("passes through top-level keywords the list cannot say", () => {
    const schema = { type: "object", properties: {}, additionalProperties: false };
    expect(mapInputSchema(schema)).toMatchObject({
      kind: "schema",
      reason: 'it uses "additionalProperties"',
    });
  });

  it("refuses a schema that is not an object of named arguments", () => {
    expect(() => mapInputSchema({ type: "string" })).toThrow(UnmappableSchemaError);
    expect(() => mapInputSchema({ type: "string" })).toThrow(
      /must be a JSON Schema of "type": "object"/,
    );
  });
});

describe("tools/call results", () => {
  it("prefers structuredContent, then text, then the blocks as sent", () => {
    expect(
      toolAnswerOf({ content: [{ type: "text", text: "5" }], structuredContent: { sum: 5 } }),
    ).toEqual({
      success: true,
      data: { sum: 5 },
    });
    expect(
      toolAnswerOf({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toEqual({
      success: true,
      data: "a\nb",
    });
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(toolAnswerOf({ content: [image] })).toEqual({
      success: true,
      data: { content: [image] },
    });
  });

  it("turns isError into a tool failure carrying the text", () => {
    expect(toolAnswerOf({ content: [{ type: "text", text: "disk full" }], isError: true })).toEqual(
      {
        success: false,
        error: "disk full",
      },
    );
    expect(toolAnswerOf({ content: [], isError: true })).toMatchObject({ success: false });
  });

  it("serves invoke data as text plus structuredContent for objects", () => {
    expect(callResultOf({ success: true, data: { id: 1 } })).toEqual({
      content: [{ type: "text", text: '{"id":1}' }],
      structuredContent: { id: 1 },
    });
    expect(callResultOf({ success: true, data: "hi" })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(callResultOf({ success: false, error: "nope" })).toEqual({
      content: [{ type: "text", text: "nope" }],
      isError: true,
    });
  });
});
