import { describe, expect, it } from "vitest";
import {
  WebFetchParamsSchema,
  WebFetchResultSchema,
  WebImageFetchParamsSchema,
  WebImageFetchResultSchema,
  WebImageSearchParamsSchema,
  WebSearchParamsSchema,
  WebSearchResultSchema,
} from "../../src/executa/web.js";

describe("web/*", () => {
  it("accepts a search with options and rejects an empty query or unknown depth", () => {
    expect(
      WebSearchParamsSchema.safeParse({
        query: "anna",
        max_results: 5,
        search_depth: "advanced",
        topic: "news",
        include_domains: ["example.com"],
        metadata: { executa_invoke_id: "inv" },
      }).success,
    ).toBe(true);
    expect(WebSearchParamsSchema.safeParse({ query: "" }).success).toBe(false);
    expect(WebSearchParamsSchema.safeParse({ query: "q", search_depth: "deep" }).success).toBe(
      false,
    );
  });

  it("takes 1 to 10 URLs to fetch", () => {
    expect(WebFetchParamsSchema.safeParse({ urls: ["https://a"] }).success).toBe(true);
    expect(WebFetchParamsSchema.safeParse({ urls: [] }).success).toBe(false);
    expect(
      WebFetchParamsSchema.safeParse({ urls: Array.from({ length: 11 }, (_, i) => `https://${i}`) })
        .success,
    ).toBe(false);
  });

  it("describes per-item fetch failures", () => {
    expect(
      WebFetchResultSchema.safeParse({
        pages: [
          { url: "https://a", ok: true, title: "A", content: "# A", truncated: false },
          { url: "http://10.0.0.1", ok: false, error: "SSRF_BLOCKED" },
        ],
        quota_consumed: 2,
      }).success,
    ).toBe(true);
  });

  it("keeps a failed page's error_message, the hint the offline service gives beside the code", () => {
    const result = {
      pages: [
        {
          url: "https://a",
          ok: false,
          error: "RESPONSE_BUDGET_EXCEEDED",
          error_message: "fetch it in another call or lower max_chars",
        },
      ],
      quota_consumed: 0,
    };
    expect(WebFetchResultSchema.parse(result)).toEqual(result);
  });

  it("checks image search aspect and image fetch url", () => {
    expect(WebImageSearchParamsSchema.safeParse({ query: "cat", aspect: "wide" }).success).toBe(
      true,
    );
    expect(WebImageSearchParamsSchema.safeParse({ query: "cat", aspect: "round" }).success).toBe(
      false,
    );
    expect(WebImageFetchParamsSchema.safeParse({ max_bytes: 10 }).success).toBe(false);
  });

  it("returns get_url, not url, for fetched images", () => {
    const result = {
      path: "web/cat.png",
      get_url: "https://r2/cat.png",
      mime_type: "image/png",
      bytes_size: 10,
      sha256: "ab",
      source_url: "https://a/cat.png",
      final_url: "https://a/cat.png",
      quota_consumed: 1,
    };
    expect(WebImageFetchResultSchema.parse(result)).toEqual(result);
    expect(
      WebSearchResultSchema.safeParse({ results: [], provider_tier: "ddgs", quota_consumed: 0.5 })
        .success,
    ).toBe(true);
  });
});
