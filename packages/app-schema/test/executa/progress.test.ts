import { describe, expect, it } from "vitest";
import { ProgressParamsSchema, normalizeProgress } from "../../src/executa/progress.js";

describe("executa/progress", () => {
  it("keeps tool_update and correlates through context.invoke_id", () => {
    const params = ProgressParamsSchema.parse({
      type: "tool_update",
      data: { step: 1, total: 3 },
      context: { invoke_id: "inv" },
    });
    expect(normalizeProgress(params)).toEqual({
      type: "tool_update",
      data: { step: 1, total: 3 },
      invokeId: "inv",
    });
  });

  it("coerces other types to progress so terminal states cannot be faked", () => {
    for (const type of ["completed", "failed", undefined]) {
      expect(normalizeProgress(ProgressParamsSchema.parse({ type, invoke_id: "i" })).type).toBe(
        "progress",
      );
    }
  });

  it("leaves an event without any invoke id unowned", () => {
    expect(
      normalizeProgress(ProgressParamsSchema.parse({ type: "progress", data: 1 })).invokeId,
    ).toBeUndefined();
  });
});
