import { describe, expect, it } from "vitest";
import { newInvokeId } from "../../src/process/invoke-id.js";

describe("newInvokeId", () => {
  it("returns distinct 32-digit lowercase hex ids, also across refills of its pool", () => {
    // The pool holds 256 ids: 1,000 ids cross several refills.
    const ids = Array.from({ length: 1_000 }, () => newInvokeId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
