// Where web_search gets its results: a provider configured per server, off by default. The one
// provider kind today speaks Tavily's HTTP JSON API (`POST {base}/search`, the spec's first tier,
// L11383), which several self-hosted search gateways also speak; any other HTTP JSON search API
// fits the same `SearchProvider` interface. The provider's answer is read through a byte cap and
// checked against a schema before a single result reaches the model.
import { z } from "zod";
import { boundedFetch } from "../../gateway/bounded-fetch.js";
import type { FetchFunction } from "../../gateway/providers.js";
import type { Secret } from "../../config/secret.js";
import { PlatformToolError } from "../platform-tool.js";

export interface SearchQuery {
  query: string;
  maxResults: number;
  topic: "general" | "news";
  includeDomains: string[];
  excludeDomains: string[];
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  publishedAt?: string;
}

export interface SearchProvider {
  /** Shown in results (`provider`) and errors. */
  readonly name: string;
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchHit[]>;
}

export const SEARCH_PROVIDER_KINDS = ["off", "tavily"] as const;
export type SearchProviderKind = (typeof SEARCH_PROVIDER_KINDS)[number];

export const TAVILY_DEFAULT_BASE_URL = "https://api.tavily.com";
export const SEARCH_DEFAULT_TIMEOUT_MS = 15_000;
/** A search answer is a page of snippets; far more than this is a broken provider. */
export const SEARCH_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
export const SEARCH_SNIPPET_MAX_CHARS = 600;
export const SEARCH_TITLE_MAX_CHARS = 300;

/** How the operator turns search on; every error of a missing provider quotes it. */
export const SEARCH_CONFIG_HINT =
  "set ANNA_WEB_SEARCH_PROVIDER=tavily and ANNA_WEB_SEARCH_API_KEY (optionally ANNA_WEB_SEARCH_BASE_URL for a compatible self-hosted endpoint)";

export interface TavilyProviderOptions {
  apiKey: Secret;
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: FetchFunction;
}

const TavilyAnswerSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function tavilySearchProvider(options: TavilyProviderOptions): SearchProvider {
  const base = (options.baseUrl ?? TAVILY_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? SEARCH_DEFAULT_TIMEOUT_MS;
  const fetch = boundedFetch(options.fetch ?? globalThis.fetch, SEARCH_MAX_RESPONSE_BYTES);
  const origin = new URL(base).origin;
  return {
    name: "tavily",
    async search(query, signal) {
      const deadline = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let body: unknown;
      try {
        response = await fetch(`${base}/search`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${options.apiKey.reveal()}`,
          },
          body: JSON.stringify({
            query: query.query,
            max_results: query.maxResults,
            topic: query.topic,
            search_depth: "basic",
            ...(query.includeDomains.length > 0 ? { include_domains: query.includeDomains } : {}),
            ...(query.excludeDomains.length > 0 ? { exclude_domains: query.excludeDomains } : {}),
          }),
          signal: AbortSignal.any([signal, deadline]),
        });
        body = response.ok ? await response.json() : await response.text();
      } catch (error) {
        const why = deadline.aborted
          ? `did not answer within ${timeoutMs} ms`
          : signal.aborted
            ? "was cancelled"
            : `could not be reached (${(error as Error).message})`;
        throw new PlatformToolError("PROVIDER_ERROR", `the search provider at ${origin} ${why}`, {
          cause: error,
        });
      }
      if (!response.ok) {
        const hint =
          response.status === 401 || response.status === 403
            ? "; check ANNA_WEB_SEARCH_API_KEY"
            : response.status === 429
              ? "; its rate limit was hit, try again later"
              : "";
        throw new PlatformToolError(
          "PROVIDER_ERROR",
          `the search provider at ${origin} answered HTTP ${response.status}${hint}`,
          { details: { status: response.status } },
        );
      }
      const parsed = TavilyAnswerSchema.safeParse(body);
      if (!parsed.success) {
        throw new PlatformToolError(
          "PROVIDER_ERROR",
          `the search provider at ${origin} answered JSON without a results list of {title, url, content}`,
        );
      }
      return parsed.data.results.slice(0, query.maxResults).map((r) => ({
        title: clip(r.title ?? r.url, SEARCH_TITLE_MAX_CHARS),
        url: r.url,
        snippet: clip(r.content ?? "", SEARCH_SNIPPET_MAX_CHARS),
        ...(typeof r.published_date === "string" ? { publishedAt: r.published_date } : {}),
      }));
    },
  };
}
