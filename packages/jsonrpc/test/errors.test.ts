import { describe, expect, it } from "vitest";
import { RpcError, RpcLocalError } from "../src/errors.js";

describe("RpcError", () => {
  it("serialises to the wire shape and omits absent data", () => {
    expect(new RpcError(-32601, "Method not found: x").toJSON()).toEqual({
      code: -32601,
      message: "Method not found: x",
    });
    expect(JSON.parse(JSON.stringify(new RpcError(-32000, "m", { errorCode: "TIMEOUT" })))).toEqual(
      {
        code: -32000,
        message: "m",
        data: { errorCode: "TIMEOUT" },
      },
    );
  });

  it("reads errorCode from data only when it is a string", () => {
    expect(new RpcError(-32000, "m", { errorCode: "PROCESS_EXITED" }).errorCode).toBe(
      "PROCESS_EXITED",
    );
    expect(new RpcError(-32000, "m", { errorCode: 5 }).errorCode).toBeUndefined();
    expect(new RpcError(-32000, "m").errorCode).toBeUndefined();
  });

  it("builds from sloppy error objects without throwing", () => {
    expect(RpcError.fromObject({ code: -32602, message: "bad", data: [1] }).toJSON()).toEqual({
      code: -32602,
      message: "bad",
      data: [1],
    });
    expect(RpcError.fromObject({ message: "no code" })).toMatchObject({
      code: -32603,
      message: "no code",
    });
    expect(RpcError.fromObject("plain string")).toMatchObject({
      code: -32603,
      message: "plain string",
    });
    expect(RpcError.fromObject(null)).toBeInstanceOf(RpcError);
  });

  it("is an Error with a name and keeps its cause", () => {
    const cause = new Error("root");
    const error = new RpcError(-32603, "wrapped", undefined, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("RpcError");
    expect(error.cause).toBe(cause);
  });
});

describe("RpcLocalError", () => {
  it("carries a string code and its cause", () => {
    const error = new RpcLocalError("TIMEOUT", "late", { cause: "x" });
    expect(error).toMatchObject({
      name: "RpcLocalError",
      code: "TIMEOUT",
      message: "late",
      cause: "x",
    });
  });
});
