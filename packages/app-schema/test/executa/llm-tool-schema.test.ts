import { describe, expect, it } from "vitest";
import { toLlmToolSchema } from "../../src/executa/llm-tool-schema.js";
import { ExecutaManifestSchema } from "../../src/executa/manifest.js";
import { fixture } from "./fixtures.js";

describe("toLlmToolSchema", () => {
  it("turns parameters[] into a JSON Schema with required defaulting to true", () => {
    const manifest = ExecutaManifestSchema.parse(fixture("manifests/no-name.json"));
    const tool = manifest.tools[0];
    if (!tool) throw new Error("fixture has a tool");
    const { schema, warnings } = toLlmToolSchema(tool);
    expect(warnings).toEqual([]);
    expect(schema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name." },
        units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
        days: { type: "integer", default: 1 },
        fields: { type: "array", items: { type: "string" } },
        ids: { type: "array", items: { type: "integer" } },
      },
      required: ["city"],
    });
  });

  it("gives an array without items string elements and a warning", () => {
    const { schema, warnings } = toLlmToolSchema({
      name: "t",
      parameters: [{ name: "tags", type: "array" }],
    });
    expect(schema.properties["tags"]).toEqual({ type: "array", items: { type: "string" } });
    expect(warnings).toEqual([
      expect.objectContaining({ code: "ARRAY_WITHOUT_ITEMS", path: ["parameters", 0] }),
    ]);
  });

  it("uses a JSON-Schema parameters object as is", () => {
    const parameters = {
      type: "object" as const,
      properties: { q: { type: "string" } },
      required: ["q"],
      additionalProperties: false,
    };
    const { schema, warnings } = toLlmToolSchema({ name: "t", parameters });
    expect(schema).toEqual(parameters);
    expect(warnings).toEqual([]);
  });

  it("gives an input_schema-only tool zero parameters and a warning", () => {
    const { schema, warnings } = toLlmToolSchema(
      { name: "t", input_schema: { type: "object", properties: { q: { type: "string" } } } },
      ["tools", 3],
    );
    expect(schema).toEqual({ type: "object", properties: {}, required: [] });
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ["INPUT_SCHEMA_IGNORED", ["tools", 3, "input_schema"]],
    ]);
  });

  it("maps Python-flavoured types and warns", () => {
    const { schema, warnings } = toLlmToolSchema({
      name: "t",
      parameters: [
        { name: "n", type: "int" },
        { name: "x", type: "weird" },
        { name: "o", type: "Object" },
      ],
    });
    expect(schema.properties).toEqual({
      n: { type: "integer" },
      x: { type: "string" },
      o: { type: "object" },
    });
    expect(warnings.map((w) => w.code)).toEqual([
      "UNKNOWN_PARAMETER_TYPE",
      "UNKNOWN_PARAMETER_TYPE",
    ]);
  });

  it("lets the last declaration of a duplicated parameter win", () => {
    const { schema, warnings } = toLlmToolSchema({
      name: "t",
      parameters: [
        { name: "q", type: "string" },
        { name: "q", type: "integer", required: false },
      ],
    });
    expect(schema.properties).toEqual({ q: { type: "integer" } });
    expect(schema.required).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(["DUPLICATE_PARAMETER"]);
  });

  it("adds an optional account argument to multi_account tools (R70)", () => {
    const { schema } = toLlmToolSchema({ name: "t", multi_account: true, parameters: [] });
    expect(schema.properties["account"]).toMatchObject({ type: "string" });
    expect(schema.required).toEqual([]);
  });
});

describe("toLlmToolSchema with null fields", () => {
  it("treats null required as required, keeps a null default and uses items_type when items is null", () => {
    const manifest = ExecutaManifestSchema.parse(fixture("manifests/python-nulls.json"));
    const [run, noop] = manifest.tools;
    if (!run || !noop) throw new Error("fixture has two tools");
    expect(toLlmToolSchema(run)).toEqual({
      schema: {
        type: "object",
        properties: {
          q: { type: "string", default: null },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["q"],
      },
      warnings: [],
    });
    expect(toLlmToolSchema(noop)).toEqual({
      schema: { type: "object", properties: {}, required: [] },
      warnings: [],
    });
  });
});

describe("toLlmToolSchema items shorthand", () => {
  it("reads items given as a bare type name", () => {
    const { schema, warnings } = toLlmToolSchema({
      name: "t",
      parameters: [{ name: "ids", type: "array", items: "integer" }],
    });
    expect(schema.properties["ids"]).toEqual({ type: "array", items: { type: "integer" } });
    expect(warnings).toEqual([]);
  });
});
