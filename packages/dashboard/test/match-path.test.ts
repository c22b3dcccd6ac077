// The hand router's matching: literal parts must be equal, `:name` takes one decoded segment,
// and a different number of segments never matches.
import { describe, expect, it } from "vitest";
import { matchPath } from "../src/match-path.js";

describe("matchPath", () => {
  it("takes named segments, decoded", () => {
    expect(matchPath("/store/:slug", "/store/quick-notes")).toEqual({ slug: "quick-notes" });
    expect(matchPath("/store/:slug", "/store/a%20b")).toEqual({ slug: "a b" });
    expect(matchPath("/store/:slug", "/store/quick-notes/")).toEqual({ slug: "quick-notes" });
  });

  it("refuses other literals and other lengths", () => {
    expect(matchPath("/store/:slug", "/apps/quick-notes")).toBeUndefined();
    expect(matchPath("/store/:slug", "/store")).toBeUndefined();
    expect(matchPath("/store/:slug", "/store/a/b")).toBeUndefined();
    expect(matchPath("/developer", "/developer")).toEqual({});
    expect(matchPath("/store/:slug", "/store/%E0%A4%A")).toBeUndefined();
  });
});
