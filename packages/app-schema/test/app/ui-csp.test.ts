import { describe, expect, it } from "vitest";
import {
  BASE_CSP,
  buildBundleCsp,
  CSP_RESTRICTED_SOURCE_PATTERN,
  serializeCsp,
} from "../../src/app/ui-csp.js";

describe("buildBundleCsp", () => {
  it("starts from the base policy with the SDK origin filled in", () => {
    const policy = buildBundleCsp(undefined, [], "https://sdk.example.com");
    expect(policy["script-src"]).toEqual(["'self'", "https://sdk.example.com"]);
    expect(policy["default-src"]).toEqual(["'none'"]);
    expect(Object.keys(policy)).toEqual(Object.keys(BASE_CSP));
  });

  it("adds external origins to connect-src and img-src, then the overrides, without duplicates", () => {
    const policy = buildBundleCsp(
      {
        "connect-src": ["https://api.example.com", "wss://live.example.com"],
        "font-src": ["https://fonts.example.com"],
      },
      ["https://api.example.com"],
    );
    expect(policy["connect-src"]).toEqual([
      "'self'",
      "https://api.example.com",
      "wss://live.example.com",
    ]);
    expect(policy["img-src"]).toEqual(["'self'", "data:", "blob:", "https://api.example.com"]);
    expect(policy["font-src"]).toEqual(["'self'", "data:", "https://fonts.example.com"]);
    expect(policy["script-src"]).toEqual(["'self'"]);
  });

  it("never applies a directive that may not be overridden", () => {
    const policy = buildBundleCsp({ "frame-ancestors": ["*"], "default-src": ["*"] });
    expect(policy["frame-ancestors"]).toEqual(["'self'"]);
    expect(policy["default-src"]).toEqual(["'none'"]);
  });

  it("serializes as a header value", () => {
    expect(serializeCsp({ "default-src": ["'none'"], "img-src": ["'self'", "data:"] })).toBe(
      "default-src 'none'; img-src 'self' data:",
    );
  });
});

describe("CSP_RESTRICTED_SOURCE_PATTERN", () => {
  it("accepts only quoted self, hashes and nonces", () => {
    for (const ok of ["'self'", "'sha256-AbC+/09='", "'nonce-abc_123'"])
      expect(CSP_RESTRICTED_SOURCE_PATTERN.test(ok)).toBe(true);
    for (const bad of [
      "self",
      "'unsafe-inline'",
      "'sha256-'",
      "https://cdn.example.com",
      "'sha384-abc'",
    ]) {
      expect(CSP_RESTRICTED_SOURCE_PATTERN.test(bad)).toBe(false);
    }
  });
});
