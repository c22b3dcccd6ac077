import { z } from "zod";
import { ClientTimeoutSchema, reverseCorrelationShape } from "./common.js";

/**
 * `web/*` reverse RPCs, the plugin twin of the App `web.*` namespace (R152–R157). Grant-bound
 * caps (`maxResultsPerCall`, advanced search, image methods) are the web service's to check.
 */

export const WEB_FETCH_MAX_URLS = 10;
/** The plugin twin's budgets (R157), tighter than the App side. */
export const WEB_PLUGIN_MAX_CHARS_PER_PAGE = 8000;
export const WEB_PLUGIN_MAX_RESPONSE_BYTES = 256 * 1024;
export const WEB_IMAGE_SEARCH_DEFAULT_RESULTS = 8;
export const WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

const commonShape = {
  _clientTimeoutS: ClientTimeoutSchema.nullish(),
  ...reverseCorrelationShape,
} as const;

export const WebSearchParamsSchema = z.looseObject({
  query: z.string().min(1),
  max_results: z.number().int().positive().nullish(),
  search_depth: z.enum(["basic", "advanced"]).nullish(),
  /** e.g. `news`. */
  topic: z.string().nullish(),
  time_range: z.string().nullish(),
  region: z.string().nullish(),
  include_domains: z.array(z.string()).nullish(),
  exclude_domains: z.array(z.string()).nullish(),
  ...commonShape,
});
export type WebSearchParams = z.infer<typeof WebSearchParamsSchema>;

export const WebSearchResultSchema = z.object({
  results: z.array(
    z.object({
      title: z.string(),
      url: z.string(),
      snippet: z.string(),
      site: z.string(),
      /** Optional, as `score`: never assume it exists (L11365). */
      published_at: z.string().nullable().optional(),
      score: z.number().nullable().optional(),
    }),
  ),
  /** The tier that actually ran: the host may degrade `advanced` to basic and bills that. */
  provider_tier: z.string(),
  quota_consumed: z.number().nonnegative(),
});
export type WebSearchResult = z.infer<typeof WebSearchResultSchema>;

export const WebFetchParamsSchema = z.looseObject({
  urls: z.array(z.string().min(1)).min(1).max(WEB_FETCH_MAX_URLS),
  format: z.string().nullish(),
  max_chars: z.number().int().positive().nullish(),
  timeout_ms: z.number().int().positive().nullish(),
  ...commonShape,
});
export type WebFetchParams = z.infer<typeof WebFetchParamsSchema>;

/** One fetched URL: its content, or why it failed. */
export const WebFetchPageSchema = z.object({
  url: z.string(),
  final_url: z.string().optional(),
  /** Check it: one blocked or broken page never fails the batch. */
  ok: z.boolean(),
  title: z.string().optional(),
  content: z.string().optional(),
  /** `content` was cut at `max_chars`. */
  truncated: z.boolean().optional(),
  /**
   * The failure code: `SSRF_BLOCKED`, `TIMEOUT`, `HTTP_<status>`, `PARSE_FAILED`, `TOO_LARGE`,
   * `RESPONSE_BUDGET_EXCEEDED`, …
   */
  error: z.string().optional(),
  /** What went wrong with this page and what would work instead (ours, beside the code). */
  error_message: z.string().optional(),
});
export type WebFetchPage = z.infer<typeof WebFetchPageSchema>;

/** One page per requested URL, in order; failures are per item (`SSRF_BLOCKED`, `HTTP_404`, …). */
export const WebFetchResultSchema = z.object({
  /** Same length and order as the URLs asked for. */
  pages: z.array(WebFetchPageSchema),
  quota_consumed: z.number().nonnegative(),
});
export type WebFetchResult = z.infer<typeof WebFetchResultSchema>;

export const WebImageSearchParamsSchema = z.looseObject({
  query: z.string().min(1),
  max_results: z.number().int().positive().nullish(),
  min_width: z.number().int().positive().nullish(),
  min_height: z.number().int().positive().nullish(),
  aspect: z.enum(["any", "wide", "tall", "square"]).nullish(),
  /** Safe search is forced; `false` is rejected by the service. */
  safe_search: z.boolean().nullish(),
  ...commonShape,
});
export type WebImageSearchParams = z.infer<typeof WebImageSearchParamsSchema>;

export const WebImageSearchResultSchema = z.object({
  results: z.array(
    z.object({
      image_url: z.string(),
      thumbnail_url: z.string().optional(),
      source_url: z.string(),
      title: z.string().optional(),
      width: z.number().int().positive().optional(),
      height: z.number().int().positive().optional(),
      mime_type: z.string().optional(),
      /** Best effort; no copyright warranty. */
      license_hint: z.string().optional(),
    }),
  ),
  quota_consumed: z.number().nonnegative(),
  cached: z.boolean().optional(),
});
export type WebImageSearchResult = z.infer<typeof WebImageSearchResultSchema>;

export const WebImageFetchParamsSchema = z.looseObject({
  url: z.string().min(1),
  max_bytes: z.number().int().positive().nullish(),
  purpose: z.string().nullish(),
  ...commonShape,
});
export type WebImageFetchParams = z.infer<typeof WebImageFetchParamsSchema>;

/** The image lands in APS files; `get_url` is presigned for 30 min (there is no `url`). */
export const WebImageFetchResultSchema = z.object({
  path: z.string(),
  get_url: z.string(),
  mime_type: z.string(),
  bytes_size: z.number().int().nonnegative(),
  sha256: z.string(),
  source_url: z.string(),
  final_url: z.string(),
  quota_consumed: z.number().nonnegative(),
});
export type WebImageFetchResult = z.infer<typeof WebImageFetchResultSchema>;
