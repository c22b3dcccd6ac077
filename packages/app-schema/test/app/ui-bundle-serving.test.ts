// What both bundle servers (the dev harness and Nexus) share: bundle paths are decoded once and
// then held to the bundle path rules; the headers carry the per-bundle CSP; HTML is only framed.
import { describe, expect, it } from "vitest";
import {
  bundleEntryFile,
  bundleSecurityHeaders,
  decodeBundlePath,
  mustBeIframed,
} from "../../src/index.js";

describe("decodeBundlePath", () => {
  it("maps the folder to the entry and refuses traversal after decoding", () => {
    expect(decodeBundlePath("", "index.html")).toBe("index.html");
    expect(decodeBundlePath("css/", "index.html")).toBe("css/index.html");
    expect(decodeBundlePath("a%20b.js", "index.html")).toEqual({
      problem: expect.stringContaining("may contain only"),
    });
    expect(decodeBundlePath("%2e%2e/x", "index.html")).toEqual({
      problem: 'must not contain ".."',
    });
    expect(decodeBundlePath("%E0%A4%A", "index.html")).toEqual({
      problem: "malformed percent-encoding",
    });
  });

  it("refuses NUL, backslashes, encoded slashes that make //, double encoding and hidden ? or #", () => {
    expect(decodeBundlePath("a%00.js", "index.html")).toEqual({ problem: "must not contain NUL" });
    expect(decodeBundlePath("..%5c..%5cetc", "index.html")).toEqual({
      problem: 'must not contain ".."',
    });
    expect(decodeBundlePath("js%5capp.js", "index.html")).toEqual({
      problem: 'must not contain "\\" (use "/")',
    });
    expect(decodeBundlePath("js%2f%2fapp.js", "index.html")).toEqual({
      problem: 'must not contain "//"',
    });
    expect(decodeBundlePath("%252e%252e/x", "index.html")).toEqual({
      problem: expect.stringContaining("may contain only"),
    });
    expect(decodeBundlePath("index.html%3f..%2f..%2fx", "index.html")).toEqual({
      problem: 'must not contain an encoded "?" or "#"',
    });
    expect(decodeBundlePath("%2fetc%2fpasswd", "index.html")).toEqual({
      problem: "must be relative to the bundle root (no leading /)",
    });
  });
});

describe("bundle headers", () => {
  it("builds the base CSP plus external origins and allowed overrides, with nosniff", () => {
    const headers = bundleSecurityHeaders(
      {
        bundle: { external_origins: ["https://api.example.com"] },
        csp_overrides: { "font-src": ["https://fonts.example.com"], "frame-src": ["*"] },
      },
      "https://nexus.example.com",
    );
    const csp = headers["Content-Security-Policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' https://nexus.example.com");
    expect(csp).toContain("connect-src 'self' https://api.example.com");
    expect(csp).toContain("font-src 'self' data: https://fonts.example.com");
    // Only the overridable directives are taken from the manifest.
    expect(csp).not.toContain("frame-src");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
  });

  it("takes the entry's file and frames only HTML", () => {
    expect(bundleEntryFile("views/main.html#/chart")).toBe("views/main.html");
    expect(bundleEntryFile(undefined)).toBe("index.html");
    expect(mustBeIframed("index.html", "document")).toBe(true);
    expect(mustBeIframed("index.html", "iframe")).toBe(false);
    expect(mustBeIframed("index.html", undefined)).toBe(false);
    expect(mustBeIframed("app.js", "document")).toBe(false);
  });
});
