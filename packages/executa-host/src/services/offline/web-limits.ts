// The web service's caps (R153–R157). The spec names the response budgets (512 KB App, 256 KB
// plugin), the plugin's 8 000 chars per page, `urls` 1–10, image search 8/50, image fetch 5/20
// MiB and redirects ≤ 5; the rest are ours (D-host-99). A
// parameter outside its cap is refused with WEB_INVALID_REQUEST, never clamped.
import { WEB_PLUGIN_MAX_CHARS_PER_PAGE, WEB_PLUGIN_MAX_RESPONSE_BYTES } from "@anna-ai/app-schema";

// The spec's own numbers live in app-schema (the wire schemas use them); one name each.
export {
  WEB_FETCH_MAX_URLS,
  WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
  WEB_IMAGE_SEARCH_DEFAULT_RESULTS,
} from "@anna-ai/app-schema";

export interface WebBudget {
  /** Default `max_chars` per page. */
  defaultCharsPerPage: number;
  /** Largest `max_chars` accepted. */
  maxCharsPerPage: number;
  /** UTF-8 bytes of page titles and content one `fetch` answer may carry. */
  maxResponseBytes: number;
}

/** App callers (`web.fetch`): 512 KiB per response (R154). */
export const WEB_APP_BUDGET: Readonly<WebBudget> = Object.freeze({
  defaultCharsPerPage: 20_000,
  maxCharsPerPage: 100_000,
  maxResponseBytes: 512 * 1024,
});

/** Plugin callers (`web/fetch`): 8 000 chars per page, 256 KiB per response (R157). */
export const WEB_PLUGIN_BUDGET: Readonly<WebBudget> = Object.freeze({
  defaultCharsPerPage: WEB_PLUGIN_MAX_CHARS_PER_PAGE,
  maxCharsPerPage: WEB_PLUGIN_MAX_CHARS_PER_PAGE,
  maxResponseBytes: WEB_PLUGIN_MAX_RESPONSE_BYTES,
});

/** Raw bytes downloaded per page before extraction; more is `TOO_LARGE`. */
export const WEB_FETCH_MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;
export const WEB_FETCH_DEFAULT_TIMEOUT_MS = 15_000;
/** The SDK's web timeout is 60 s (R101); a page may not outlive the call. */
export const WEB_FETCH_MAX_TIMEOUT_MS = 60_000;
export const WEB_URL_MAX_CHARS = 2048;
/** A page `title` is cut here: `max_chars` bounds only `content`. */
export const WEB_TITLE_MAX_CHARS = 1000;

export const WEB_SEARCH_DEFAULT_RESULTS = 5;
export const WEB_SEARCH_DEFAULT_MAX_RESULTS_PER_CALL = 10;
export const WEB_QUERY_MAX_CHARS = 400;
export const WEB_DOMAIN_FILTER_MAX = 20;

export const WEB_IMAGE_SEARCH_MAX_RESULTS = 50;
export const WEB_IMAGE_FETCH_MAX_BYTES = 20 * 1024 * 1024;
export const WEB_IMAGE_FETCH_TIMEOUT_MS = 30_000;
/** `get_url` of a fetched image lives 30 min (R156). */
export const WEB_IMAGE_GET_URL_TTL_S = 1800;
/** Image search answers are reused for 10 min (R155, `cached: true`). */
export const WEB_IMAGE_SEARCH_CACHE_MS = 10 * 60 * 1000;
