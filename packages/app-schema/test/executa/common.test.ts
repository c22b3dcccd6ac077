import { describe, expect, it } from "vitest";
import { reverseInvokeId } from "../../src/executa/common.js";

describe("reverseInvokeId", () => {
  it("prefers context.invoke_id, then metadata.executa_invoke_id, metadata.invoke_id, top level", () => {
    expect(
      reverseInvokeId({
        context: { invoke_id: "c" },
        metadata: { executa_invoke_id: "m" },
        invoke_id: "t",
      }),
    ).toBe("c");
    expect(reverseInvokeId({ metadata: { executa_invoke_id: "m", invoke_id: "n" } })).toBe("m");
    expect(reverseInvokeId({ metadata: { invoke_id: "n" } })).toBe("n");
    expect(reverseInvokeId({ invoke_id: "t" })).toBe("t");
  });

  it("treats empty strings and missing params as no id", () => {
    expect(
      reverseInvokeId({ metadata: { executa_invoke_id: "" }, context: { invoke_id: "" } }),
    ).toBeUndefined();
    expect(reverseInvokeId(undefined)).toBeUndefined();
    expect(reverseInvokeId({ context: null })).toBeUndefined();
  });
});
