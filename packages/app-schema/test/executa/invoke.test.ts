import { describe, expect, it } from "vitest";
import {
  IncomingInvokeParamsSchema,
  InvokeParamsSchema,
  InvokeResultSchema,
  normalizeInvokeParams,
  normalizeInvokeResult,
} from "../../src/executa/invoke.js";

const context = { invoke_id: "abc", plugin_name: "weather", deadline_ms: 1_900_000_000_000 };

describe("invoke params", () => {
  it("accepts what our host sends (H9)", () => {
    const params = {
      tool: "get_weather",
      name: "get_weather",
      arguments: { city: "Oslo" },
      invoke_id: "abc",
      context: { ...context, credentials: { API_KEY: "k" }, sampling_token: "jwt" },
    };
    expect(InvokeParamsSchema.parse(params)).toEqual(params);
  });

  it("rejects null arguments or context in what we send", () => {
    const base = { tool: "t", name: "t", arguments: {}, invoke_id: "abc", context };
    expect(InvokeParamsSchema.safeParse({ ...base, arguments: null }).success).toBe(false);
    expect(InvokeParamsSchema.safeParse({ ...base, context: null }).success).toBe(false);
  });

  it("reads the spec example (tool, arguments, credentials only)", () => {
    const raw = IncomingInvokeParamsSchema.parse({
      tool: "do_something",
      arguments: { input_text: "hello" },
      context: { credentials: { MY_API_KEY: "sk" } },
    });
    expect(normalizeInvokeParams(raw)).toEqual({
      tool: "do_something",
      arguments: { input_text: "hello" },
      invokeId: undefined,
      pluginName: undefined,
      deadlineMs: undefined,
      credentials: { MY_API_KEY: "sk" },
      tokens: {},
    });
  });

  it("reads the Reference form: name only, invoke_id and sampling_token at the top level, null context", () => {
    const raw = IncomingInvokeParamsSchema.parse({
      name: "t",
      arguments: null,
      invoke_id: "top",
      sampling_token: "s",
      context: null,
    });
    expect(normalizeInvokeParams(raw)).toMatchObject({
      tool: "t",
      arguments: {},
      invokeId: "top",
      tokens: { sampling_token: "s" },
    });
  });

  it("prefers context.invoke_id and context tokens, and treats deadline ≤ 0 as none", () => {
    const raw = IncomingInvokeParamsSchema.parse({
      tool: "t",
      invoke_id: "top",
      sampling_token: "outer",
      context: {
        invoke_id: "inner",
        deadline_ms: 0,
        sampling_token: "inner-token",
        storage_token: "st",
      },
    });
    expect(normalizeInvokeParams(raw)).toMatchObject({
      invokeId: "inner",
      deadlineMs: undefined,
      tokens: { sampling_token: "inner-token", storage_token: "st" },
    });
  });
});

describe("invoke results", () => {
  it("requires success in what a plugin should send", () => {
    expect(InvokeResultSchema.safeParse({ data: 1 }).success).toBe(false);
    expect(InvokeResultSchema.parse({ success: true, data: { t: 1 }, duration_ms: 12 })).toEqual({
      success: true,
      data: { t: 1 },
      duration_ms: 12,
    });
  });

  it("keeps success, data, duration and the tool echo", () => {
    expect(
      normalizeInvokeResult({ success: true, data: { temp: 3 }, tool: "w", duration_ms: 5 }),
    ).toEqual({
      success: true,
      data: { temp: 3 },
      tool: "w",
      duration_ms: 5,
    });
  });

  it("keeps a tool failure's message", () => {
    expect(normalizeInvokeResult({ success: false, error: "city not found" })).toEqual({
      success: false,
      error: "city not found",
    });
    expect(normalizeInvokeResult({ success: false, error: { message: "boom" } })).toEqual({
      success: false,
      error: "boom",
    });
    expect(normalizeInvokeResult({ success: false })).toEqual({
      success: false,
      error: "tool failed",
    });
  });

  it("treats a bare payload without success as success with that payload", () => {
    expect(normalizeInvokeResult({ temp: 3, city: "Oslo" })).toEqual({
      success: true,
      data: { temp: 3, city: "Oslo" },
    });
    expect(normalizeInvokeResult("plain text")).toEqual({ success: true, data: "plain text" });
    expect(normalizeInvokeResult([1, 2])).toEqual({ success: true, data: [1, 2] });
    expect(normalizeInvokeResult(null)).toEqual({ success: true, data: null });
  });

  it("treats an object holding only an error as a failure", () => {
    expect(normalizeInvokeResult({ error: "quota" })).toEqual({ success: false, error: "quota" });
    expect(normalizeInvokeResult({ error: "x", rows: [] })).toEqual({
      success: true,
      data: { error: "x", rows: [] },
    });
  });
});

describe("invoke params from other hosts", () => {
  it("keeps only string credentials", () => {
    const raw = IncomingInvokeParamsSchema.parse({
      tool: "t",
      context: { credentials: { A: "a", B: null, C: 3 } },
    });
    expect(normalizeInvokeParams(raw).credentials).toEqual({ A: "a" });
  });
});
