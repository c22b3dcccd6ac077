import { describe, expect, it } from "vitest";
import { RpcError } from "@anna-ai/jsonrpc";
import { readDescribeResult } from "../../src/process/manifest.js";

const LABEL = 'plugin "p"';

function invalid(raw: unknown): RpcError {
  try {
    readDescribeResult(raw, LABEL);
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).errorCode).toBe("INVALID_MANIFEST");
    expect((error as RpcError).message).toContain(LABEL);
    return error as RpcError;
  }
  throw new Error("expected INVALID_MANIFEST");
}

describe("readDescribeResult", () => {
  it("keeps the bare manifest, including one without a name", () => {
    const { manifest, warnings } = readDescribeResult(
      { tools: [{ name: "a", timeout: 600 }], host_capabilities: ["llm.sample"], extra: 1 },
      LABEL,
    );
    expect(warnings).toEqual([]);
    expect(manifest.tools[0]?.timeout).toBe(600);
    expect(manifest.host_capabilities).toEqual(["llm.sample"]);
    expect(manifest.extra).toBe(1);
  });

  it("rejects {manifest:{...}} with an explanation (pitfall 5)", () => {
    expect(invalid({ manifest: { name: "p", tools: [] } }).message).toContain("pitfall 5");
  });

  it("rejects results that are not manifests", () => {
    invalid(null);
    invalid([]);
    invalid({ name: "no tools" });
  });

  it("reports pitfalls as warnings and keeps going", () => {
    const { manifest, warnings } = readDescribeResult(
      { tools: [{ name: "a", input_schema: { type: "object" } }], host_capabilities: ["storage"] },
      LABEL,
    );
    expect(manifest.tools.map((t) => t.name)).toEqual(["a"]);
    expect(warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(["INPUT_SCHEMA_IGNORED", "STORAGE_CAPABILITY_STRING"]),
    );
  });
});
