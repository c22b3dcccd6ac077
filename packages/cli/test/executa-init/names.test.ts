import { describe, expect, it } from "vitest";
import {
  defaultToolId,
  displayName,
  pythonModule,
  slugProblem,
  suggestSlug,
  toolIdProblem,
} from "../../src/executa-init/names.js";

describe("slugs", () => {
  it.each(["my-tool", "a", "weather2", "x-1-y"])("accepts kebab-case '%s'", (slug) => {
    expect(slugProblem(slug)).toBeUndefined();
  });

  it.each(["My-Tool", "my_tool", "-tool", "tool-", "my--tool", "2tool", "my tool", ""])(
    "rejects '%s'",
    (slug) => {
      expect(slugProblem(slug)).toBeDefined();
    },
  );

  it("rejects slugs longer than 64 characters", () => {
    expect(slugProblem("a".repeat(64))).toBeUndefined();
    expect(slugProblem("a".repeat(65))).toMatch(/longer than 64/);
  });

  it("suggests a kebab-case slug for a folder name that is not one", () => {
    expect(suggestSlug("My_Tool")).toBe("my-tool");
    expect(suggestSlug("weatherTool 2")).toBe("weather-tool-2");
    expect(suggestSlug("123")).toBeUndefined();
  });

  it("derives the tool id, the Python module and the display name", () => {
    expect(defaultToolId("my-tool")).toBe("tool-dev-my-tool");
    expect(pythonModule("my-tool")).toBe("my_tool_plugin");
    expect(displayName("my-weather-tool")).toBe("My Weather Tool");
  });
});

describe("tool ids", () => {
  it.each(["tool-dev-x", "tool-acme-weather-1a2b3c4d", "tool.v2_x", "7up"])(
    "accepts '%s'",
    (id) => {
      expect(toolIdProblem(id)).toBeUndefined();
    },
  );

  it.each(["Tool-X", "-tool", "tool x", "tool/x", "", "t".repeat(129)])("rejects '%s'", (id) => {
    expect(toolIdProblem(id)).toBeDefined();
  });
});
