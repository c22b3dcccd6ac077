// `web.search` and `web.image_search` offline: no provider, so the answers come from mock-fixture
// lines (`{"ns":"web","method":"search","match":{…},"result":{…}}`) or the call fails with
// WEB_PROVIDER_ERROR naming where such a line goes. Image search answers are cached per user,
// query and filters for WEB_IMAGE_SEARCH_CACHE_MS.
import type {
  WebImageSearchParams,
  WebImageSearchResult,
  WebSearchParams,
  WebSearchResult,
} from "@anna-ai/app-schema";
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";
import type { WebService, WebServiceContext } from "../web-service.js";
import type { MockFixture } from "./mock-fixture.js";
import { fixtureRpcError } from "./sampling-fixture.js";
import { checkCount, checkQuery, invalid, requireGrant } from "./web-checks.js";
import {
  WEB_DOMAIN_FILTER_MAX,
  WEB_IMAGE_SEARCH_CACHE_MS,
  WEB_IMAGE_SEARCH_DEFAULT_RESULTS,
  WEB_IMAGE_SEARCH_MAX_RESULTS,
  WEB_SEARCH_DEFAULT_MAX_RESULTS_PER_CALL,
  WEB_SEARCH_DEFAULT_RESULTS,
} from "./web-limits.js";

/**
 * A real source of search answers (a server's search provider): called with the checked
 * params, it answers `{results, provider_tier?}` (`web/search`) or throws the family's error.
 */
export type WebSearchSource = (
  method: "web/search" | "web/image_search",
  params: WebSearchParams | WebImageSearchParams,
  ctx: WebServiceContext,
) => Promise<unknown>;

export interface WebSearchOptions {
  fixture: MockFixture | undefined;
  /** Answers instead of the fixture (the server's provider); the checks and caps stay these. */
  source?: WebSearchSource | undefined;
  /** Where a search answer would come from, for the error message. */
  hint: string;
  /** Epoch ms, for the image-search cache. */
  clock: () => number;
}

export function createWebSearch(
  options: WebSearchOptions,
): Pick<WebService, "search" | "imageSearch"> {
  const { hint, clock } = options;
  const imageCache = new Map<string, { at: number; result: WebImageSearchResult }>();

  async function answerOf(
    method: "web/search" | "web/image_search",
    params: WebSearchParams | WebImageSearchParams,
    ctx: WebServiceContext,
  ): Promise<unknown> {
    if (options.source !== undefined) return options.source(method, params, ctx);
    const entry = options.fixture?.find(method, params);
    if (entry === undefined) {
      throw catalogError(
        WEB_ERRORS.PROVIDER_ERROR,
        `${method}: no search provider on this offline host; answer it with ${hint}`,
        { reason: "NO_PROVIDER" },
      );
    }
    if (entry.error !== undefined) throw fixtureRpcError(entry.error, "web");
    return structuredClone(entry.result);
  }

  return {
    async search(params: WebSearchParams, ctx: WebServiceContext): Promise<WebSearchResult> {
      const grant = requireGrant(ctx.grant, "allowSearch", "web/search");
      checkQuery(params.query, "web/search");
      const cap = grant.maxResultsPerCall ?? WEB_SEARCH_DEFAULT_MAX_RESULTS_PER_CALL;
      const max = checkCount(params.max_results, WEB_SEARCH_DEFAULT_RESULTS, cap, "max_results");
      if (params.search_depth === "advanced" && grant.allowAdvanced !== true) {
        throw catalogError(
          WEB_ERRORS.NOT_GRANTED,
          "web/search: search_depth 'advanced' needs web_grant.allowAdvanced; use 'basic' or ask the user to allow advanced search",
          { reason: "ADVANCED_NOT_GRANTED" },
        );
      }
      const include = checkDomains(params.include_domains, "include_domains");
      const exclude = checkDomains(params.exclude_domains, "exclude_domains");
      const answer = (await answerOf("web/search", params, ctx)) as
        Partial<WebSearchResult> | undefined;
      const results = (Array.isArray(answer?.results) ? answer.results : [])
        .filter((r) => domainAllowed(r.url, include, exclude))
        .slice(0, max);
      return {
        results,
        provider_tier: typeof answer?.provider_tier === "string" ? answer.provider_tier : "mock",
        quota_consumed: 0,
      };
    },

    async imageSearch(
      params: WebImageSearchParams,
      ctx: WebServiceContext,
    ): Promise<WebImageSearchResult> {
      requireGrant(ctx.grant, "allowImageSearch", "web/image_search");
      checkQuery(params.query, "web/image_search");
      if (params.safe_search === false) {
        throw invalid("web/image_search: safe search is always on; drop safe_search: false");
      }
      const max = checkCount(
        params.max_results,
        WEB_IMAGE_SEARCH_DEFAULT_RESULTS,
        WEB_IMAGE_SEARCH_MAX_RESULTS,
        "max_results",
      );
      for (const key of ["min_width", "min_height"] as const) {
        checkCount(params[key], 1, 10_000, key);
      }
      const key = JSON.stringify([
        ctx.userId,
        params.query,
        max,
        params.min_width,
        params.min_height,
        params.aspect,
      ]);
      const now = clock();
      const hit = imageCache.get(key);
      if (hit !== undefined && now - hit.at < WEB_IMAGE_SEARCH_CACHE_MS) {
        return { ...structuredClone(hit.result), cached: true };
      }
      const answer = (await answerOf("web/image_search", params, ctx)) as
        Partial<WebImageSearchResult> | undefined;
      const results = (Array.isArray(answer?.results) ? answer.results : [])
        .filter((r) => imageFits(r, params))
        .slice(0, max);
      const result: WebImageSearchResult = { results, quota_consumed: 0, cached: false };
      // Expired answers go when a new one comes, so a long session's cache does not only grow.
      for (const [old, entry] of imageCache) {
        if (now - entry.at >= WEB_IMAGE_SEARCH_CACHE_MS) imageCache.delete(old);
      }
      imageCache.set(key, { at: now, result: structuredClone(result) });
      return result;
    },
  };
}

function checkDomains(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (
    !Array.isArray(value) ||
    value.length > WEB_DOMAIN_FILTER_MAX ||
    !value.every((d) => typeof d === "string" && /^[a-z0-9.-]+$/i.test(d))
  ) {
    throw invalid(
      `'${name}' takes up to ${WEB_DOMAIN_FILTER_MAX} domain names like "example.com"`,
      {
        param: name,
      },
    );
  }
  return value.map((d: string) => d.toLowerCase());
}

function domainAllowed(url: string, include: string[], exclude: string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return include.length === 0;
  }
  const under = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (exclude.some(under)) return false;
  return include.length === 0 || include.some(under);
}

function imageFits(
  result: { width?: number | undefined; height?: number | undefined },
  params: WebImageSearchParams,
): boolean {
  const { width, height } = result;
  if (params.min_width != null && width !== undefined && width < params.min_width) return false;
  if (params.min_height != null && height !== undefined && height < params.min_height) return false;
  if (
    params.aspect == null ||
    params.aspect === "any" ||
    width === undefined ||
    height === undefined
  ) {
    return true;
  }
  const ratio = width / height;
  if (params.aspect === "wide") return ratio > 1.2;
  if (params.aspect === "tall") return ratio < 0.83;
  return ratio >= 0.83 && ratio <= 1.2;
}
