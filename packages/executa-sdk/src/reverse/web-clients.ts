// Clients for the two "on the user's behalf" families that are twins of App Host API
// namespaces: `web/*` (R157, the twin of `web.*`) and `credentials/*` (R67–R68, the user's
// platform-authorized accounts). One file, like the other client groups, to keep a plugin's
// import graph small.

import type {
  WebFetchPage,
  WebFetchResult,
  WebImageFetchResult,
  WebImageSearchResult,
  WebSearchResult,
} from "@anna-ai/app-schema";
import { HostClient, compact, type CallControl } from "./channel.js";

// ---- web/* -----------------------------------------------------------------------------------

// The answers are app-schema's wire types, field docs included: one shape for the host that
// sends them and the plugin that reads them.
export type { WebFetchResult, WebImageFetchResult, WebImageSearchResult, WebSearchResult };
/** One page of a `web/fetch` answer. */
export type WebPage = WebFetchPage;

/** The SDK's web default per call (R101, L11367: "SDK web-namespace default is 60s"). */
export const WEB_TIMEOUT_MS = 60_000;

export interface WebSearchOptions extends CallControl {
  /** Default 5; above the user's `web_grant.maxResultsPerCall` (10) is refused, not cut. */
  maxResults?: number;
  /** `advanced` is a quality intent and needs `web_grant.allowAdvanced`. */
  searchDepth?: "basic" | "advanced";
  topic?: string;
  timeRange?: string;
  region?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
}

export interface WebFetchOptions extends CallControl {
  /** `markdown` (default) or `text`. */
  format?: "markdown" | "text";
  /** Per page; plugins get at most 8 000 (R157). */
  maxChars?: number;
  /** Per page fetch, host side. */
  fetchTimeoutMs?: number;
}

export interface WebImageSearchOptions extends CallControl {
  /** Default 8, cap 50. */
  maxResults?: number;
  minWidth?: number;
  minHeight?: number;
  aspect?: "any" | "wide" | "tall" | "square";
}

export interface WebImageFetchOptions extends CallControl {
  /** Default 5 MiB, cap 20 MiB. */
  maxBytes?: number;
  purpose?: string;
}

/**
 * `web/*` (R157): search and page fetch on the user's behalf. Needs `web.search` / `web.fetch`
 * (and `web.image_search` / `web.image_fetch`) in `host_capabilities` and the user's
 * `web_grant`; refusals are WebError -32521…-32528.
 */
export class WebClient extends HostClient {
  protected readonly family = "web";
  protected readonly defaultTimeoutMs = WEB_TIMEOUT_MS;

  search(query: string, options: WebSearchOptions = {}): Promise<WebSearchResult> {
    return this.call(
      "web/search",
      compact({
        query,
        max_results: options.maxResults,
        search_depth: options.searchDepth,
        topic: options.topic,
        time_range: options.timeRange,
        region: options.region,
        include_domains: options.includeDomains,
        exclude_domains: options.excludeDomains,
      }),
      options,
    );
  }

  /** Fetches 1–10 URLs; check `pages[i].ok`. */
  fetch(urls: string | readonly string[], options: WebFetchOptions = {}): Promise<WebFetchResult> {
    return this.call(
      "web/fetch",
      compact({
        urls: typeof urls === "string" ? [urls] : [...urls],
        format: options.format,
        max_chars: options.maxChars,
        timeout_ms: options.fetchTimeoutMs,
      }),
      options,
    );
  }

  imageSearch(query: string, options: WebImageSearchOptions = {}): Promise<WebImageSearchResult> {
    return this.call(
      "web/image_search",
      compact({
        query,
        max_results: options.maxResults,
        min_width: options.minWidth,
        min_height: options.minHeight,
        aspect: options.aspect,
      }),
      options,
    );
  }

  imageFetch(url: string, options: WebImageFetchOptions = {}): Promise<WebImageFetchResult> {
    return this.call(
      "web/image_fetch",
      compact({ url, max_bytes: options.maxBytes, purpose: options.purpose }),
      options,
    );
  }
}

// ---- credentials/* ---------------------------------------------------------------------------

/** The Python SDK's default (`CredentialsClient.get_token(…, timeout=30)`, R67–R68). */
export const CREDENTIALS_TIMEOUT_MS = 30_000;

export interface CredentialAccount {
  account_id: string;
  email: string | null;
  label: string | null;
  /** Exactly one account per provider is the default. */
  is_default: boolean;
  status: string;
  scopes: string[];
}

export interface AccessToken {
  access_token: string;
  account_id: string;
  /** ISO 8601; short-lived, fetch a new one per use rather than caching it. */
  expires_at: string;
}

/**
 * `credentials/*` (R66–R68): the user's connected accounts of an OAuth provider your manifest
 * declares a credential for (e.g. `GOOGLE_ACCESS_TOKEN` → `google`). No grant or
 * `host_capabilities` entry; refusals are CredentialsError -32061…-32064. Never log a token.
 */
export class CredentialsClient extends HostClient {
  protected readonly family = "credentials";
  protected readonly defaultTimeoutMs = CREDENTIALS_TIMEOUT_MS;

  /** Metadata only, never tokens. */
  async listAccounts(provider: string, control: CallControl = {}): Promise<CredentialAccount[]> {
    const result = await this.call<{ accounts?: CredentialAccount[] }>(
      "credentials/listAccounts",
      { provider },
      control,
    );
    return result.accounts ?? [];
  }

  /**
   * A short-lived access token for one account; omit `accountId` for the default one. Pass an
   * `account_id` from `listAccounts`, not an email (-32062).
   */
  getToken(
    provider: string,
    options: CallControl & { accountId?: string | null } = {},
  ): Promise<AccessToken> {
    return this.call(
      "credentials/getToken",
      compact({ provider, account_id: options.accountId ?? undefined }),
      options,
    );
  }
}
