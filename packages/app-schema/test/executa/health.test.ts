import { describe, expect, it } from "vitest";
import { HealthResultSchema, healthState } from "../../src/executa/health.js";

describe("health", () => {
  it.each([
    [{ status: "healthy", timestamp: 1, version: "1.0", tools_count: 2 }, "healthy"],
    [{ status: "ok" }, "healthy"],
    [{ status: "ready", message: "", details: {} }, "healthy"],
    [{ status: "READY" }, "healthy"],
    [{ status: "initializing" }, "starting"],
    [{ status: "error", message: "db down" }, "unhealthy"],
    [{}, "healthy"],
    [{ status: "degraded" }, "healthy"],
    [null, "healthy"],
  ] as const)("reads %j as %s (H8)", (result, state) => {
    expect(healthState(result)).toBe(state);
  });

  it("accepts free-form result objects and nothing else", () => {
    expect(HealthResultSchema.safeParse({ status: 1, anything: true }).success).toBe(true);
    expect(HealthResultSchema.safeParse("ok").success).toBe(false);
  });
});
