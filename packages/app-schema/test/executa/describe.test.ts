import { describe, expect, it } from "vitest";
import { manifestWarnings, parseDescribeResult } from "../../src/executa/describe.js";
import {
  ExecutaManifestSchema,
  normalizeCredential,
  toolTimeoutMs,
} from "../../src/executa/manifest.js";
import { fixture } from "./fixtures.js";

describe("parseDescribeResult", () => {
  it("accepts a manifest without a name and keeps unknown keys", () => {
    const result = parseDescribeResult(fixture("manifests/no-name.json"));
    if (!result.ok) throw new Error(result.error);
    expect(result.manifest.name).toBeUndefined();
    expect(result.manifest.tools[0]?.name).toBe("get_weather");
    expect(result.manifest["x_vendor"]).toEqual({ kept: true });
    expect(result.warnings).toEqual([]);
  });

  it("accepts parameters given as a JSON-Schema object", () => {
    const result = parseDescribeResult(fixture("manifests/parameters-object.json"));
    if (!result.ok) throw new Error(result.error);
    expect(result.warnings).toEqual([]);
    expect(Array.isArray(result.manifest.tools[0]?.parameters)).toBe(false);
  });

  it("warns about input_schema, arrays without items, unknown types and bad capability strings", () => {
    const result = parseDescribeResult(fixture("manifests/input-schema.json"));
    if (!result.ok) throw new Error(result.error);
    const byCode = result.warnings.map((w) => [w.code, w.path.join(".")]);
    expect(byCode).toEqual([
      ["INPUT_SCHEMA_IGNORED", "tools.0.input_schema"],
      ["ARRAY_WITHOUT_ITEMS", "tools.1.parameters.0"],
      ["UNKNOWN_PARAMETER_TYPE", "tools.1.parameters.1.type"],
      ["STORAGE_CAPABILITY_STRING", "host_capabilities.0"],
      ["UNKNOWN_HOST_CAPABILITY", "host_capabilities.1"],
      ["STORAGE_CAPABILITY_STRING", "host_capabilities.2"],
    ]);
    expect(result.warnings[3]?.message).toContain("aps.kv");
  });

  it("rejects a {manifest: …} wrapper with an explanation (pitfall 5)", () => {
    const result = parseDescribeResult(fixture("manifests/wrapped.json"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/manifest itself.*pitfall 5/);
  });

  it("rejects a manifest without tools and names the field", () => {
    const result = parseDescribeResult(fixture("manifests/no-tools-key.json"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("tools");
  });

  it.each([null, "manifest", 42, [{ tools: [] }]])("rejects a non-object result %j", (raw) => {
    expect(parseDescribeResult(raw).ok).toBe(false);
  });

  it("rejects a parameter without a name and points at it", () => {
    const raw = {
      tools: [{ name: "t", parameters: [{ name: "a", type: "string" }, { type: "string" }] }],
    };
    const result = parseDescribeResult(raw);
    expect(result).toEqual({
      ok: false,
      error:
        "invalid describe manifest: tools[0].parameters[1].name: Invalid input: expected string, received undefined",
    });
  });

  it("accepts a parameter without a type and warns", () => {
    const result = parseDescribeResult({ tools: [{ name: "t", parameters: [{ name: "q" }] }] });
    if (!result.ok) throw new Error(result.error);
    expect(result.warnings.map((w) => [w.code, w.path.join(".")])).toEqual([
      ["UNKNOWN_PARAMETER_TYPE", "tools.0.parameters.0.type"],
    ]);
  });

  it("warns about duplicate tools and an empty tool list", () => {
    const dup = ExecutaManifestSchema.parse({ tools: [{ name: "a" }, { name: "a" }] });
    expect(manifestWarnings(dup).map((w) => w.code)).toEqual(["DUPLICATE_TOOL"]);
    const empty = ExecutaManifestSchema.parse({ tools: [] });
    expect(manifestWarnings(empty).map((w) => w.code)).toEqual(["NO_TOOLS"]);
  });
});

describe("manifest helpers", () => {
  it("applies credential defaults: required and sensitive, no default for secrets", () => {
    expect(normalizeCredential({ name: "API_KEY", default: "x" })).toEqual({
      name: "API_KEY",
      display_name: "API_KEY",
      description: "",
      required: true,
      sensitive: true,
    });
    expect(
      normalizeCredential({ name: "REGION", sensitive: false, required: false, default: "eu" }),
    ).toMatchObject({
      required: false,
      sensitive: false,
      default: "eu",
    });
  });

  it("converts tool timeouts to milliseconds with the 60 s default", () => {
    expect(toolTimeoutMs({})).toBe(60_000);
    expect(toolTimeoutMs({ timeout: 600 })).toBe(600_000);
  });

  it("rejects a tool timeout that is not a number", () => {
    expect(ExecutaManifestSchema.safeParse({ tools: [{ name: "t", timeout: "60" }] }).success).toBe(
      false,
    );
  });
});

describe("null-valued optional fields (Python dataclasses)", () => {
  it("accepts a manifest whose unset fields are null and reads them as absent", () => {
    const result = parseDescribeResult(fixture("manifests/python-nulls.json"));
    if (!result.ok) throw new Error(result.error);
    expect(result.warnings).toEqual([]);
    const credential = result.manifest.credentials?.[0];
    if (!credential) throw new Error("fixture has a credential");
    expect(normalizeCredential(credential)).toEqual({
      name: "TOKEN",
      display_name: "TOKEN",
      description: "",
      required: true,
      sensitive: true,
    });
    const run = result.manifest.tools[0];
    if (!run) throw new Error("fixture has a tool");
    expect(toolTimeoutMs(run)).toBe(60_000);
  });
});

describe("lenient tool fields", () => {
  it("accepts a non-positive timeout, warns and applies the default", () => {
    const result = parseDescribeResult({ tools: [{ name: "t", timeout: 0 }] });
    if (!result.ok) throw new Error(result.error);
    expect(result.warnings.map((w) => [w.code, w.path.join(".")])).toEqual([
      ["INVALID_TIMEOUT", "tools.0.timeout"],
    ]);
    const tool = result.manifest.tools[0];
    if (!tool) throw new Error("one tool");
    expect(toolTimeoutMs(tool)).toBe(60_000);
  });
});
