import { describe, expect, it } from "vitest";
import {
  FileTransportPointerSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcMessageSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  JsonRpcSuccessResponseSchema,
} from "../../src/executa/jsonrpc.js";

describe("JSON-RPC envelope", () => {
  it.each([
    ["a 32-hex string id", "0123456789abcdef0123456789abcdef"],
    ["a dashed UUID id", "550e8400-e29b-41d4-a716-446655440000"],
    ["an integer id", 12],
  ])("accepts a reverse request with %s and keeps its type", (_label, id) => {
    const parsed = JsonRpcRequestSchema.parse({
      jsonrpc: "2.0",
      id,
      method: "storage/get",
      params: { key: "k" },
    });
    expect(parsed.id).toBe(id);
  });

  it("rejects fractional, null and missing request ids", () => {
    for (const id of [1.5, null, undefined]) {
      expect(JsonRpcRequestSchema.safeParse({ jsonrpc: "2.0", id, method: "m" }).success).toBe(
        false,
      );
    }
  });

  it("rejects a frame without jsonrpc 2.0", () => {
    expect(JsonRpcRequestSchema.safeParse({ jsonrpc: "1.0", id: 1, method: "m" }).success).toBe(
      false,
    );
  });

  it("accepts a notification without params", () => {
    expect(JsonRpcNotificationSchema.parse({ jsonrpc: "2.0", method: "executa/progress" })).toEqual(
      {
        jsonrpc: "2.0",
        method: "executa/progress",
      },
    );
  });

  it("requires a result key on success responses, even when it is null", () => {
    expect(
      JsonRpcSuccessResponseSchema.safeParse({ jsonrpc: "2.0", id: 1, result: null }).success,
    ).toBe(true);
    expect(JsonRpcSuccessResponseSchema.safeParse({ jsonrpc: "2.0", id: 1 }).success).toBe(false);
  });

  it("accepts parse-error responses with a null or absent id", () => {
    const error = { code: -32700, message: "Parse error" };
    expect(JsonRpcErrorResponseSchema.safeParse({ jsonrpc: "2.0", id: null, error }).success).toBe(
      true,
    );
    expect(JsonRpcErrorResponseSchema.safeParse({ jsonrpc: "2.0", error }).success).toBe(true);
    expect(
      JsonRpcErrorResponseSchema.safeParse({
        jsonrpc: "2.0",
        id: 1,
        error: { code: "x", message: "m" },
      }).success,
    ).toBe(false);
  });

  it("keeps error.data.errorCode", () => {
    const parsed = JsonRpcErrorResponseSchema.parse({
      jsonrpc: "2.0",
      id: "u-1",
      error: {
        code: -32201,
        message: "Upload token missing",
        data: { errorCode: "UPLOAD_NOT_GRANTED" },
      },
    });
    expect(parsed.error.data).toEqual({ errorCode: "UPLOAD_NOT_GRANTED" });
  });

  it("recognises a file-transport pointer that has no method (H3)", () => {
    const frame = { jsonrpc: "2.0", id: "abc", __file_transport: "/tmp/executa-msg-1.json" };
    expect(FileTransportPointerSchema.parse(frame).__file_transport).toBe(
      "/tmp/executa-msg-1.json",
    );
    expect(JsonRpcMessageSchema.safeParse(frame).success).toBe(true);
    expect(JsonRpcRequestSchema.safeParse(frame).success).toBe(false);
  });

  it("rejects something that is no JSON-RPC frame at all", () => {
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: "2.0", id: 1 }).success).toBe(false);
    expect(JsonRpcMessageSchema.safeParse("hello").success).toBe(false);
  });
});
