// The offline web service (R152–R157). `fetch` and `image_fetch` really go out over HTTP through
// the SSRF-guarded fetcher; `search` and `image_search` have no provider offline, so they answer
// from mock-fixture lines (`{"ns":"web","method":"search","match":{…},"result":{…}}`) or fail
// with WEB_PROVIDER_ERROR naming where such a line goes. Grants, caps, per-item failures and error
// codes are the production ones; nothing is billed (`quota_consumed: 0`, as dev calls, R152).
import { createHash } from "node:crypto";
import type {
  FilesUploadBeginResult,
  WebFetchPage,
  WebFetchParams,
  WebFetchResult,
  WebImageFetchParams,
  WebImageFetchResult,
  WebImageSearchParams,
  WebImageSearchResult,
  WebSearchParams,
  WebSearchResult,
} from "@anna-ai/app-schema";
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import type { FilesService } from "../files-service.js";
import { catalogError } from "../service-error.js";
import type { WebGrant, WebService, WebServiceContext } from "../web-service.js";
import type { MockFixture } from "./mock-fixture.js";
import { fixtureRpcError } from "./sampling-fixture.js";
import {
  extractHtml,
  htmlMetaCharset,
  isHtml,
  isPlainText,
  WEB_FETCH_FORMATS,
  type WebFetchFormat,
} from "./web-extract.js";
import { guardedFetch, WebItemError } from "./web-fetcher.js";
import { sniffImage } from "./web-image-sniff.js";
import {
  WEB_APP_BUDGET,
  WEB_DOMAIN_FILTER_MAX,
  WEB_FETCH_DEFAULT_TIMEOUT_MS,
  WEB_FETCH_MAX_DOWNLOAD_BYTES,
  WEB_FETCH_MAX_TIMEOUT_MS,
  WEB_FETCH_MAX_URLS,
  WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
  WEB_IMAGE_FETCH_MAX_BYTES,
  WEB_IMAGE_FETCH_TIMEOUT_MS,
  WEB_IMAGE_GET_URL_TTL_S,
  WEB_IMAGE_SEARCH_CACHE_MS,
  WEB_IMAGE_SEARCH_DEFAULT_RESULTS,
  WEB_IMAGE_SEARCH_MAX_RESULTS,
  WEB_PLUGIN_BUDGET,
  WEB_QUERY_MAX_CHARS,
  WEB_SEARCH_DEFAULT_MAX_RESULTS_PER_CALL,
  WEB_SEARCH_DEFAULT_RESULTS,
  WEB_TITLE_MAX_CHARS,
  WEB_URL_MAX_CHARS,
  type WebBudget,
} from "./web-limits.js";
import { SsrfPolicy, type Resolver } from "./web-ssrf.js";

export interface OfflineWebOptions {
  /** Answers for `web/search` and `web/image_search`; without one they fail, naming `fixtureHint`. */
  fixture?: MockFixture;
  /** Where a search answer would come from, for the error message (e.g. a CLI flag). */
  fixtureHint?: string;
  /** Where `image_fetch` stores the image (APS files); without one `image_fetch` fails. */
  files?: FilesService;
  /** Test and local-dev only: fetch from 127.0.0.1/::1 on any port (web-ssrf.ts). */
  allowLoopback?: boolean;
  resolver?: Resolver;
  /** Epoch ms, for the image-search cache. Default `Date.now`. */
  clock?: () => number;
}

const invalid = (message: string, data?: Record<string, unknown>) =>
  catalogError(WEB_ERRORS.INVALID_REQUEST, message, data);

export function createOfflineWebService(options: OfflineWebOptions = {}): WebService {
  const policy = new SsrfPolicy({
    ...(options.allowLoopback === undefined ? {} : { allowLoopback: options.allowLoopback }),
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
  });
  const clock = options.clock ?? Date.now;
  const hint =
    options.fixtureHint ?? 'a mock fixture line {"ns":"web","method":"search","result":{…}}';
  const imageCache = new Map<string, { at: number; result: WebImageSearchResult }>();

  function fromFixture(method: "web/search" | "web/image_search", params: object): unknown {
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
      const answer = fromFixture("web/search", params) as Partial<WebSearchResult> | undefined;
      const results = (Array.isArray(answer?.results) ? answer.results : [])
        .filter((r) => domainAllowed(r.url, include, exclude))
        .slice(0, max);
      return {
        results,
        provider_tier: typeof answer?.provider_tier === "string" ? answer.provider_tier : "mock",
        quota_consumed: 0,
      };
    },

    async fetch(params: WebFetchParams, ctx: WebServiceContext): Promise<WebFetchResult> {
      requireGrant(ctx.grant, "allowFetch", "web/fetch");
      const budget: WebBudget = ctx.app === undefined ? WEB_PLUGIN_BUDGET : WEB_APP_BUDGET;
      const urls: unknown = params.urls;
      if (!Array.isArray(urls) || urls.length < 1 || urls.length > WEB_FETCH_MAX_URLS) {
        throw invalid(
          `web/fetch: 'urls' takes 1 to ${WEB_FETCH_MAX_URLS} URLs; got ${Array.isArray(urls) ? urls.length : typeof urls}`,
        );
      }
      for (const [i, url] of urls.entries()) {
        if (typeof url !== "string" || url.length === 0 || url.length > WEB_URL_MAX_CHARS) {
          throw invalid(`web/fetch: urls[${i}] must be a URL of 1 to ${WEB_URL_MAX_CHARS} chars`);
        }
      }
      const format = (params.format ?? "markdown") as WebFetchFormat;
      if (!WEB_FETCH_FORMATS.includes(format)) {
        throw invalid(
          `web/fetch: 'format' ${JSON.stringify(params.format)} is not one of ${WEB_FETCH_FORMATS.join(", ")}`,
        );
      }
      const maxChars = checkCount(
        params.max_chars,
        budget.defaultCharsPerPage,
        budget.maxCharsPerPage,
        "max_chars",
      );
      const timeoutMs = checkCount(
        params.timeout_ms,
        WEB_FETCH_DEFAULT_TIMEOUT_MS,
        WEB_FETCH_MAX_TIMEOUT_MS,
        "timeout_ms",
      );
      const settled = await Promise.all(
        (urls as string[]).map((url) => fetchPage(url, format, maxChars, timeoutMs, ctx.signal)),
      );
      // The response budget counts in input order, so the first pages win (R154).
      let used = 0;
      const pages = settled.map((page): WebFetchPage => {
        if (!page.ok || page.content === undefined) return page;
        const bytes = Buffer.byteLength(page.content) + Buffer.byteLength(page.title ?? "");
        if (used + bytes > budget.maxResponseBytes) {
          return {
            url: page.url,
            ...(page.final_url === undefined ? {} : { final_url: page.final_url }),
            ok: false,
            error: "RESPONSE_BUDGET_EXCEEDED",
            error_message: `this page would take the answer past ${budget.maxResponseBytes} bytes; fetch it in another call or lower max_chars`,
          };
        }
        used += bytes;
        return page;
      });
      return { pages, quota_consumed: 0 };
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
      const answer = fromFixture("web/image_search", params) as
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

    async imageFetch(
      params: WebImageFetchParams,
      ctx: WebServiceContext,
    ): Promise<WebImageFetchResult> {
      requireGrant(ctx.grant, "allowImageFetch", "web/image_fetch");
      const maxBytes = checkCount(
        params.max_bytes,
        WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
        WEB_IMAGE_FETCH_MAX_BYTES,
        "max_bytes",
      );
      if (typeof params.url !== "string" || params.url.length > WEB_URL_MAX_CHARS) {
        throw invalid(`web/image_fetch: 'url' must be a URL of 1 to ${WEB_URL_MAX_CHARS} chars`);
      }
      const files = options.files;
      if (files === undefined) {
        throw catalogError(
          WEB_ERRORS.PROVIDER_ERROR,
          "web/image_fetch: this host has no files service to store the image in",
          { reason: "NO_FILES_SERVICE" },
        );
      }
      let fetched;
      try {
        fetched = await guardedFetch(params.url, {
          policy,
          timeoutMs: WEB_IMAGE_FETCH_TIMEOUT_MS,
          maxBytes,
          accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1",
          signal: ctx.signal,
        });
      } catch (error) {
        throw imageFetchError(error, maxBytes);
      }
      const image = sniffImage(fetched.body);
      if (image === undefined) {
        throw invalid(
          `web/image_fetch: ${fetched.finalUrl} is not a JPEG, PNG, WebP or GIF image (checked by its bytes; the server said ${fetched.mediaType || "nothing"})`,
          { reason: "UNSUPPORTED_MEDIA_TYPE", final_url: fetched.finalUrl },
        );
      }
      const sha256 = createHash("sha256").update(fetched.body).digest("hex");
      const path = `web/images/${sha256.slice(0, 32)}.${image.extension}`;
      const scope = ctx.app === undefined ? "tool" : "app";
      const filesCtx = { ...ctx, grant: {} };
      const begun: FilesUploadBeginResult = await files.uploadBegin(
        { path, scope, size_bytes: fetched.body.length, content_type: image.mimeType },
        filesCtx,
      );
      const put = await fetch(begun.put_url, {
        method: "PUT",
        // The presigned headers carry the content type the upload was begun with.
        headers: begun.headers,
        body: fetched.body,
        // A cancelled call stops the store too, instead of leaving the upload running.
        signal: ctx.signal,
      });
      if (!put.ok) {
        throw catalogError(
          WEB_ERRORS.PROVIDER_ERROR,
          `web/image_fetch: storing the image failed (HTTP ${put.status} from the files store)`,
        );
      }
      await files.uploadComplete({ path, scope, size_bytes: fetched.body.length }, filesCtx);
      const got = await files.downloadUrl(
        { path, scope, ttl_seconds: WEB_IMAGE_GET_URL_TTL_S },
        filesCtx,
      );
      return {
        path,
        get_url: got.get_url,
        mime_type: image.mimeType,
        bytes_size: fetched.body.length,
        sha256,
        source_url: params.url,
        final_url: fetched.finalUrl,
        quota_consumed: 0,
      };
    },
  };

  async function fetchPage(
    url: string,
    format: WebFetchFormat,
    maxChars: number,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<WebFetchPage> {
    try {
      const fetched = await guardedFetch(url, {
        policy,
        timeoutMs,
        maxBytes: WEB_FETCH_MAX_DOWNLOAD_BYTES,
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
        signal,
      });
      const charset =
        fetched.charset ?? (isHtml(fetched.mediaType) ? htmlMetaCharset(fetched.body) : undefined);
      let text: string;
      try {
        text = new TextDecoder(charset ?? "utf-8").decode(fetched.body);
      } catch {
        text = fetched.body.toString("utf8");
      }
      let title: string | undefined;
      let content: string;
      if (isHtml(fetched.mediaType)) {
        ({ title, content } = extractHtml(text, format, fetched.finalUrl));
      } else if (isPlainText(fetched.mediaType)) {
        content = text;
      } else {
        throw new WebItemError(
          "PARSE_FAILED",
          `${fetched.finalUrl} is ${fetched.mediaType}, which has no text to extract; fetch HTML or text pages`,
          fetched.finalUrl,
        );
      }
      const cut = cutChars(content, maxChars);
      const truncated = cut.length < content.length;
      return {
        url,
        final_url: fetched.finalUrl,
        ok: true,
        ...(title === undefined ? {} : { title: cutChars(title, WEB_TITLE_MAX_CHARS) }),
        content: cut,
        truncated,
      };
    } catch (error) {
      if (!(error instanceof WebItemError)) throw error;
      return {
        url,
        ...(error.finalUrl === undefined ? {} : { final_url: error.finalUrl }),
        ok: false,
        error: error.code,
        error_message: error.message,
      };
    }
  }
}

/** The first `max` code points of `text` (never half a surrogate pair), without an array of all. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}

function requireGrant(
  grant: WebGrant | undefined,
  flag: "allowSearch" | "allowFetch" | "allowImageSearch" | "allowImageFetch",
  method: string,
): WebGrant {
  if (grant?.enabled !== true) {
    throw catalogError(
      WEB_ERRORS.NOT_GRANTED,
      `${method}: web access is not granted; the user enables it for this app (web_grant), then retry`,
      { reason: "WEB_GRANT_DISABLED" },
    );
  }
  // Search and fetch default on once enabled; the image methods default off (R152).
  const allowed =
    flag === "allowSearch" || flag === "allowFetch" ? grant[flag] !== false : grant[flag] === true;
  if (!allowed) {
    throw catalogError(
      WEB_ERRORS.NOT_GRANTED,
      `${method}: web_grant.${flag} is off; the user allows it for this app, then retry`,
      { reason: `${flag.replace(/^allow/, "").toUpperCase()}_NOT_GRANTED` },
    );
  }
  return grant;
}

function checkQuery(query: unknown, method: string): void {
  if (typeof query !== "string" || query.trim() === "" || query.length > WEB_QUERY_MAX_CHARS) {
    throw invalid(`${method}: 'query' must be 1 to ${WEB_QUERY_MAX_CHARS} chars of text`);
  }
}

/** A positive integer within `[1, cap]`; absent → `fallback`. Out of cap is refused (R153). */
function checkCount(value: unknown, fallback: number, cap: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > cap) {
    throw invalid(`'${name}' must be an integer from 1 to ${cap}; got ${JSON.stringify(value)}`, {
      param: name,
      max: cap,
    });
  }
  return value;
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

/** One image, one answer: the item codes of `fetch` become the call's error. */
function imageFetchError(error: unknown, maxBytes: number) {
  if (!(error instanceof WebItemError)) return error;
  const data = {
    reason: error.code,
    ...(error.finalUrl === undefined ? {} : { final_url: error.finalUrl }),
  };
  switch (error.code) {
    case "INVALID_URL":
    case "SSRF_BLOCKED":
      return catalogError(WEB_ERRORS.INVALID_REQUEST, `web/image_fetch: ${error.message}`, data);
    case "TOO_LARGE":
      return catalogError(
        WEB_ERRORS.INVALID_REQUEST,
        `web/image_fetch: ${error.message}; raise max_bytes (≤ ${WEB_IMAGE_FETCH_MAX_BYTES}) or pick a smaller image`,
        { ...data, max_bytes: maxBytes },
      );
    case "TIMEOUT":
      return catalogError(WEB_ERRORS.TIMEOUT, `web/image_fetch: ${error.message}`, data);
    default:
      return catalogError(WEB_ERRORS.PROVIDER_ERROR, `web/image_fetch: ${error.message}`, data);
  }
}
