// Bundle paths are decoded once and then held to app-schema's bundle path rules.
import { describe, expect, it } from "vitest";
import { decodeBundlePath } from "../../src/dev/bundle-files.js";

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
});
