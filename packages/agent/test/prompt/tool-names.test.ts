import { describe, expect, it } from "vitest";
import { executaToolName, sanitizeToolName, toolJsonSchema } from "../../src/index.js";
import { ToolNamer } from "../../src/prompt/tool-names.js";

const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe("tool names", () => {
  it("qualifies executa tools by slug with characters providers accept", () => {
    expect(executaToolName("weather", "lookup")).toBe("weather__lookup");
    expect(executaToolName("my.plugin", "get data/v2")).toBe("my_plugin__get_data_v2");
    expect(sanitizeToolName("")).toBe("tool");
  });

  it("cuts long names to 64 characters with a hash that keeps them apart", () => {
    const a = executaToolName("a".repeat(60), "first_tool");
    const b = executaToolName("a".repeat(60), "second_tool");
    expect(a).toMatch(PROVIDER_NAME);
    expect(b).toMatch(PROVIDER_NAME);
    expect(a).not.toBe(b);
    expect(executaToolName("a".repeat(60), "first_tool")).toBe(a);
  });

  it("gives later claimants of a taken name _2, _3, … within 64 characters", () => {
    const namer = new ToolNamer();
    expect(namer.reserve("web_search")).toBe(true);
    expect(namer.claim("web_search")).toBe("web_search_2");
    expect(namer.claim("web_search")).toBe("web_search_3");
    const long = "x".repeat(64);
    expect(namer.claim(long)).toBe(long);
    expect(namer.claim(long)).toBe(`${"x".repeat(62)}_2`);
  });
});

describe("toolJsonSchema (T6)", () => {
  it("converts declared parameters: required by default, enums, defaults, both array forms", () => {
    expect(
      toolJsonSchema({
        name: "t",
        parameters: [
          { name: "q", type: "string", description: "query" },
          { name: "n", type: "integer", required: false, default: 5 },
          { name: "mode", type: "string", enum: ["a", "b"] },
          { name: "tags", type: "array", items_type: "string" },
          { name: "ids", type: "array", items: { type: "integer" } },
          { name: "loose", type: "array" },
          { name: "opts", type: "dict" },
        ],
      }),
    ).toEqual({
      type: "object",
      properties: {
        q: { type: "string", description: "query" },
        n: { type: "integer", default: 5 },
        mode: { type: "string", enum: ["a", "b"] },
        tags: { type: "array", items: { type: "string" } },
        ids: { type: "array", items: { type: "integer" } },
        loose: { type: "array", items: { type: "string" } },
        opts: { type: "object" },
      },
      required: ["q", "mode", "tags", "ids", "loose", "opts"],
    });
  });

  it("gives an input_schema-only tool no parameters, as the platform does", () => {
    expect(
      toolJsonSchema({ name: "t", input_schema: { type: "object", properties: { x: {} } } }),
    ).toEqual({ type: "object", properties: {}, required: [] });
  });

  it("adds the optional account argument to multi_account tools", () => {
    const schema = toolJsonSchema({ name: "t", multi_account: true, parameters: [] });
    expect(schema.properties["account"]).toMatchObject({ type: "string" });
    expect(schema.required).toEqual([]);
  });
});
