import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_POLICY,
  GatewayError,
  retryAfterFromHeaders,
  retryDelayMs,
} from "../src/index.js";

const POLICY = { ...DEFAULT_RETRY_POLICY, maxRetries: 3 };
const error = (status: number, retryAfterMs?: number) =>
  new GatewayError(status === 429 ? "rate_limited" : "provider_error", "x", {
    provider: "openai",
    status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

describe("retry-after", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    expect(retryAfterFromHeaders({ "retry-after-ms": "250" })).toBe(250);
    expect(retryAfterFromHeaders({ "Retry-After": "3" })).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFromHeaders({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(
      5000,
    );
    expect(retryAfterFromHeaders({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
  });
});

describe("the retry policy", () => {
  it("retries 429 and 5xx, not other 4xx", () => {
    expect(retryDelayMs(error(429), 0, POLICY)).toBeGreaterThan(0);
    expect(retryDelayMs(error(502), 0, POLICY)).toBeGreaterThan(0);
    expect(retryDelayMs(error(400), 0, POLICY)).toBeUndefined();
    expect(retryDelayMs(error(401), 0, POLICY)).toBeUndefined();
    expect(
      retryDelayMs(new GatewayError("quota_exceeded", "x", { provider: "p" }), 0, POLICY),
    ).toBeUndefined();
  });

  it("backs off exponentially with jitter, capped", () => {
    const top = () => 1;
    expect(retryDelayMs(error(500), 0, POLICY, top)).toBe(500);
    expect(retryDelayMs(error(500), 1, POLICY, top)).toBe(1000);
    expect(retryDelayMs(error(500), 2, POLICY, top)).toBe(2000);
    expect(retryDelayMs(error(500), 2, { ...POLICY, maxDelayMs: 1500 }, top)).toBe(1500);
    expect(retryDelayMs(error(500), 0, POLICY, () => 0)).toBe(250);
  });

  it("is bounded, and does not wait out a retry-after longer than it allows", () => {
    expect(retryDelayMs(error(500), 3, POLICY)).toBeUndefined();
    expect(retryDelayMs(error(429, 1200), 0, POLICY)).toBe(1200);
    expect(retryDelayMs(error(429, 120_000), 0, POLICY)).toBeUndefined();
  });
});
