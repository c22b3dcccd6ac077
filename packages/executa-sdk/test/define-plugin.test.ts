import { describe, expect, expectTypeOf, it } from "vitest";
import { definePlugin, p, type ToolContext } from "../src/index.js";

describe("definePlugin", () => {
  const plugin = definePlugin({
    manifest: {
      display_name: "Weather",
      version: "1.2.3",
      description: "Weather tools.",
      credentials: [{ name: "WEATHER_KEY", required: false }],
      host_capabilities: ["llm.sample"],
    },
    tools: {
      forecast: {
        description: "Forecast for a city.",
        parameters: {
          city: p.string(),
          days: p.integer({ required: false }),
          unit: p.string({ enum: ["c", "f"], default: "c" }),
        },
        timeout: 30,
        handler: (args, ctx) => {
          expectTypeOf(args.city).toEqualTypeOf<string>();
          expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
          expectTypeOf(args.unit).toEqualTypeOf<"c" | "f">();
          expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
          return { city: args.city };
        },
      },
      ping: { description: "Ping.", parameters: {}, handler: () => "pong" },
      legacy: {
        description: "Raw parameter list.",
        parameters: [{ name: "q", type: "string", description: "Query" }],
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          return args.q;
        },
      },
    },
  });

  it("describes the bare manifest with tools[] built from the map", () => {
    const manifest = plugin.describe();
    expect(manifest).toEqual({
      display_name: "Weather",
      version: "1.2.3",
      description: "Weather tools.",
      credentials: [{ name: "WEATHER_KEY", required: false }],
      host_capabilities: ["llm.sample"],
      tools: [
        {
          name: "forecast",
          description: "Forecast for a city.",
          timeout: 30,
          parameters: [
            { name: "city", type: "string", required: true },
            { name: "days", type: "integer", required: false },
            { name: "unit", type: "string", required: false, default: "c", enum: ["c", "f"] },
          ],
        },
        { name: "ping", description: "Ping.", parameters: [] },
        {
          name: "legacy",
          description: "Raw parameter list.",
          parameters: [{ name: "q", type: "string", description: "Query", required: true }],
        },
      ],
    });
    expect(manifest).not.toHaveProperty("name");
  });

  it("returns a frozen manifest so no caller can change what describe answers", () => {
    expect(Object.isFrozen(plugin.describe())).toBe(true);
    expect(Object.isFrozen(plugin.describe().tools[0])).toBe(true);
  });

  it("rejects a plugin without tools and duplicate parameter names", () => {
    expect(() =>
      definePlugin({ manifest: { version: "1.0.0", description: "x" }, tools: {} }),
    ).toThrow(/at least one tool/);
    expect(() =>
      definePlugin({
        manifest: { version: "1.0.0", description: "x" },
        tools: {
          t: {
            description: "t",
            parameters: [
              { name: "a", type: "string" },
              { name: "a", type: "string" },
            ],
            handler: () => 1,
          },
        },
      }),
    ).toThrow(/twice/);
  });
});
