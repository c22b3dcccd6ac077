import { describe, expect, it } from "vitest";
import { RpcError } from "@anna-ai/jsonrpc";
import {
  buildInvokeParams,
  normaliseInvokeResult,
  toInvokeResultWire,
} from "../../src/process/invoke.js";

describe("buildInvokeParams (H9)", () => {
  it("puts the tool in tool and name, and invoke_id at the top level and in context", () => {
    const params = buildInvokeParams({
      tool: "weather",
      args: { city: "Oslo" },
      invokeId: "abc",
      pluginName: "weather-plugin",
      deadlineMs: 1_700_000_000_000,
      credentials: { API_KEY: "k" },
      extraContext: { sampling_token: "jwt", invoke_id: "spoofed" },
    });
    expect(params).toEqual({
      tool: "weather",
      name: "weather",
      arguments: { city: "Oslo" },
      invoke_id: "abc",
      context: {
        invoke_id: "abc",
        plugin_name: "weather-plugin",
        deadline_ms: 1_700_000_000_000,
        credentials: { API_KEY: "k" },
        sampling_token: "jwt",
      },
    });
  });

  it("sends {} for missing arguments and omits absent credentials", () => {
    const params = buildInvokeParams({
      tool: "t",
      args: undefined,
      invokeId: "i",
      pluginName: "p",
      deadlineMs: 1,
    });
    expect(params.arguments).toEqual({});
    expect("credentials" in params.context).toBe(false);
  });
});

describe("normaliseInvokeResult", () => {
  it("accepts {success:true,data}", () => {
    expect(normaliseInvokeResult({ success: true, data: { t: 1 } }, 5)).toEqual({
      ok: true,
      data: { t: 1 },
      durationMs: 5,
      raw: { success: true, data: { t: 1 } },
    });
  });

  it("turns {success:false,error} into a tool failure", () => {
    expect(normaliseInvokeResult({ success: false, error: "city not found" }, 1)).toMatchObject({
      ok: false,
      kind: "tool_failed",
      error: "city not found",
    });
    expect(normaliseInvokeResult({ success: false, error: { message: "m" } }, 1)).toMatchObject({
      error: "m",
    });
    expect(normaliseInvokeResult({ success: false }, 1)).toMatchObject({ kind: "tool_failed" });
  });

  it("treats a payload without success as the data", () => {
    expect(normaliseInvokeResult({ answer: 42 }, 1)).toMatchObject({
      ok: true,
      data: { answer: 42 },
    });
    expect(normaliseInvokeResult("text", 1)).toMatchObject({ ok: true, data: "text" });
    expect(normaliseInvokeResult(null, 1)).toMatchObject({ ok: true, data: null });
  });
});

describe("toInvokeResultWire", () => {
  it("produces {success, data, error, duration_ms}", () => {
    expect(toInvokeResultWire({ ok: true, data: 1, durationMs: 1.6, raw: {} })).toEqual({
      success: true,
      data: 1,
      duration_ms: 2,
    });
    expect(
      toInvokeResultWire({ ok: false, kind: "tool_failed", error: "e", durationMs: 0, raw: {} }),
    ).toEqual({ success: false, error: "e", duration_ms: 0 });
    expect(
      toInvokeResultWire({
        ok: false,
        kind: "rpc_error",
        error: new RpcError(-32000, "boom"),
        durationMs: 3,
      }),
    ).toEqual({ success: false, error: "boom", duration_ms: 3 });
  });
});
