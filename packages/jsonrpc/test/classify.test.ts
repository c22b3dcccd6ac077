import { describe, expect, it } from "vitest";
import { classifyMessage } from "../src/classify.js";

describe("classifyMessage", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "describe" }, "request"],
    [{ jsonrpc: "2.0", id: "abc", method: "storage/get", params: {} }, "request"],
    [{ jsonrpc: "2.0", method: "executa/progress", params: {} }, "notification"],
    [{ jsonrpc: "2.0", id: 1, result: null }, "response"],
    [{ jsonrpc: "2.0", id: "x", result: { a: 1 } }, "response"],
    [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, "response"],
    [{ jsonrpc: "2.0", id: 1 }, "invalid"],
    [{ jsonrpc: "2.0" }, "invalid"],
    [{ jsonrpc: "2.0", id: 1, method: 5 }, "invalid"],
    [{ jsonrpc: "2.0", id: true, method: "x" }, "invalid"],
    [{ jsonrpc: "2.0", id: null, method: "x" }, "invalid"],
    [{ jsonrpc: "2.0", id: { a: 1 }, result: 1 }, "invalid"],
  ] as const)("classifies %j as %s", (message, kind) => {
    expect(classifyMessage(message as Record<string, unknown>)).toBe(kind);
  });
});
