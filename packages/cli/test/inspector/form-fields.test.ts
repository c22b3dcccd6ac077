// The inspector's form descriptions, from both ways a manifest declares parameters.
import type { ToolDefinition } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { toolView } from "../../src/inspector/form-fields.js";

describe("toolView", () => {
  it("reads a parameters list: types, enums, defaults, required, array items", () => {
    const view = toolView({
      name: "t",
      description: "d",
      parameters: [
        { name: "mode", type: "string", enum: ["a", "b"], description: "m" },
        { name: "n", type: "integer", required: false, default: 3 },
        { name: "on", type: "boolean", required: false },
        { name: "ids", type: "array", items: { type: "integer" } },
        { name: "o", type: "object", required: false },
      ],
    } as ToolDefinition);
    expect(view.fields).toEqual([
      { name: "mode", type: "string", required: true, description: "m", enum: ["a", "b"] },
      { name: "n", type: "integer", required: false, description: "", default: 3 },
      { name: "on", type: "boolean", required: false, description: "" },
      { name: "ids", type: "array", required: true, description: "", items: "integer" },
      { name: "o", type: "object", required: false, description: "" },
    ]);
  });

  it("reads a JSON-Schema object, with a nullable type and an untyped property as free JSON", () => {
    const view = toolView({
      name: "t",
      parameters: {
        type: "object",
        properties: {
          q: { type: ["string", "null"], description: "query" },
          anything: {},
        },
        required: ["q"],
      },
    } as unknown as ToolDefinition);
    expect(view.fields).toEqual([
      { name: "q", type: "string", required: true, description: "query" },
      { name: "anything", type: "any", required: false, description: "" },
    ]);
  });
});
