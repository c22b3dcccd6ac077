import { describe, expect, it } from "vitest";
import { ExecutaJsonSchema, activeDistribution } from "../../src/executa/executa-json.js";

describe("executa.json", () => {
  it("accepts extra keys such as transport and a string command", () => {
    const parsed = ExecutaJsonSchema.parse({
      tool_id: "tool-acme-go-12345678",
      type: "go",
      command: "go run ./cmd/notes",
      transport: "stdio",
    });
    expect(parsed["transport"]).toBe("stdio");
    expect(parsed.command).toBe("go run ./cmd/notes");
  });

  it("accepts a folder without tool_id so callers can warn", () => {
    expect(ExecutaJsonSchema.safeParse({ type: "python" }).success).toBe(true);
  });

  it("rejects an empty tool_id and a non-boolean enabled", () => {
    expect(ExecutaJsonSchema.safeParse({ tool_id: "" }).success).toBe(false);
    expect(ExecutaJsonSchema.safeParse({ tool_id: "t", enabled: "no" }).success).toBe(false);
  });

  it("reads a flat distribution", () => {
    const json = ExecutaJsonSchema.parse({
      tool_id: "t",
      type: "binary",
      distribution: {
        type: "binary",
        binary_urls: {
          "linux-x86_64": { url: "https://x/y.tar.gz", sha256: "ab" },
          "*": "https://x/any",
        },
      },
    });
    expect(activeDistribution(json)?.binary_urls?.["*"]).toBe("https://x/any");
  });

  it("picks the active profile, or the one asked for", () => {
    const json = ExecutaJsonSchema.parse({
      tool_id: "t",
      type: "binary",
      distribution: {
        profiles: {
          active: "binary",
          binary: {
            type: "binary",
            binary_artifacts: { "linux-x86_64": { path: "dist/x.tar.gz" } },
          },
          local: { type: "local", executable_name: "x" },
        },
      },
    });
    expect(activeDistribution(json)?.type).toBe("binary");
    expect(activeDistribution(json, "local")?.executable_name).toBe("x");
    expect(activeDistribution(ExecutaJsonSchema.parse({ tool_id: "t" }))).toBeUndefined();
  });
});
