import { describe, expect, it } from "vitest";
import {
  InitializeParamsSchema,
  InitializeResultSchema,
  normalizeInitializeParams,
  normalizeInitializeResult,
} from "../../src/executa/initialize.js";

describe("initialize", () => {
  it("accepts the host request of the Lifecycle page", () => {
    const params = {
      protocolVersion: "2.0",
      clientInfo: { name: "matrix-agent", version: "1.0" },
      capabilities: {
        sampling: {
          modalities: ["text"],
          maxTokensPerCall: 8192,
          maxCallsPerInvoke: 8,
          responseFormat: ["json_object", "json_schema"],
        },
        fileTransport: true,
      },
    };
    expect(InitializeParamsSchema.parse(params)).toEqual(params);
  });

  it("reads the upstream dev tool's client_capabilities and client_info", () => {
    const params = InitializeParamsSchema.parse({
      protocolVersion: "2.0",
      client_capabilities: {
        sampling: {},
        agent: {},
        storage: {},
        image: {},
        "image.edit": {},
        upload: {},
      },
      client_info: { name: "anna-app", version: "0.1.50" },
    });
    const normalized = normalizeInitializeParams(params);
    expect(normalized.clientInfo).toEqual({ name: "anna-app", version: "0.1.50" });
    expect(Object.keys(normalized.capabilities).sort()).toEqual(
      ["agent", "image", "image.edit", "sampling", "storage", "upload"].sort(),
    );
  });

  it("rejects params without a protocolVersion", () => {
    expect(InitializeParamsSchema.safeParse({ capabilities: {} }).success).toBe(false);
  });

  it("merges serverInfo/server_info and capabilities/client_capabilities from the plugin (H7)", () => {
    const seen = InitializeResultSchema.parse({
      protocolVersion: "2.0",
      serverInfo: { name: "img", version: "1" },
      client_capabilities: { sampling: {}, image: {}, "image.edit": {} },
      capabilities: { storage: { kv: true, files: true } },
    });
    expect(normalizeInitializeResult(seen)).toEqual({
      protocolVersion: "2.0",
      serverInfo: { name: "img", version: "1" },
      capabilities: {
        sampling: {},
        image: {},
        "image.edit": {},
        storage: { kv: true, files: true },
      },
    });
    const snake = InitializeResultSchema.parse({
      protocolVersion: "2.0",
      server_info: { name: "my-tool", version: "0.1.0" },
      capabilities: { sampling: {} },
    });
    expect(normalizeInitializeResult(snake).serverInfo).toEqual({
      name: "my-tool",
      version: "0.1.0",
    });
  });

  it("reads a missing protocolVersion as the one offered", () => {
    expect(normalizeInitializeResult(InitializeResultSchema.parse({})).protocolVersion).toBe("2.0");
  });

  it("rejects capabilities that are not a map", () => {
    expect(InitializeResultSchema.safeParse({ capabilities: ["sampling"] }).success).toBe(false);
  });
});
