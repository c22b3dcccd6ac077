import { describe, expect, it } from "vitest";
import { RpcError } from "@anna-ai/jsonrpc";
import { readDescribeResult } from "../../src/process/manifest.js";

const LABEL = 'plugin "p"';

describe("readDescribeResult", () => {
  it("keeps the bare manifest and reads tool timeouts", () => {
    const { manifest, warnings } = readDescribeResult(
      { name: "p", tools: [{ name: "a", timeout: 600 }], host_capabilities: ["llm.sample"] },
      LABEL,
    );
    expect(warnings).toEqual([]);
    expect(manifest.tools[0]?.timeout).toBe(600);
    expect(manifest.host_capabilities).toEqual(["llm.sample"]);
  });

  it("rejects {manifest:{...}} with an explanation (pitfall 5)", () => {
    try {
      readDescribeResult({ manifest: { name: "p", tools: [] } }, LABEL);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).errorCode).toBe("INVALID_MANIFEST");
      expect((error as RpcError).message).toContain("bare manifest");
    }
  });

  it("rejects results that are not objects", () => {
    expect(() => readDescribeResult(null, LABEL)).toThrow(/describe returned null/);
    expect(() => readDescribeResult([], LABEL)).toThrow(/an array/);
  });

  it("warns about input_schema, nameless tools and bad timeouts, and keeps going", () => {
    const { manifest, warnings } = readDescribeResult(
      {
        tools: [{ name: "a", input_schema: {} }, { description: "x" }, { name: "b", timeout: -1 }],
        host_capabilities: "llm.sample",
      },
      LABEL,
    );
    expect(manifest.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(manifest.tools[1]?.timeout).toBeUndefined();
    expect(manifest.host_capabilities).toBeUndefined();
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toContain("input_schema");
  });
});
