// `web.*` for apps and `web/*` for plugins (R152–R157): search, page fetch, image search and
// image fetch on the user's behalf, behind the user's `web_grant`. The service owns the grant
// checks, the caps (out-of-cap parameters are refused, never truncated) and the SSRF policy; a
// blocked or broken page fails its own item, never the batch.
import type {
  WebFetchParams,
  WebFetchResult,
  WebImageFetchParams,
  WebImageFetchResult,
  WebImageSearchParams,
  WebImageSearchResult,
  WebSearchParams,
  WebSearchResult,
} from "@anna-ai/app-schema";
import type { ServiceContext } from "./service-context.js";

/**
 * `web_grant` (R152): `UserAnnaApp.custom_config.web_grant` / `UserExecuta.custom_config`.
 * Default DISABLED; once `enabled`, search and fetch default on, advanced depth and the image
 * methods default off. `anna-app dev` seeds everything on (`WEB_GRANT_ALL`).
 */
export interface WebGrant {
  enabled?: boolean;
  allowSearch?: boolean;
  allowFetch?: boolean;
  allowAdvanced?: boolean;
  allowImageSearch?: boolean;
  allowImageFetch?: boolean;
  /** `web.search` `max_results` cap; default 10. */
  maxResultsPerCall?: number;
}

/** The fully-enabled dev grant `anna-app dev` seeds (R152: dev calls are never billed). */
export const WEB_GRANT_ALL: Readonly<Required<WebGrant>> = Object.freeze({
  enabled: true,
  allowSearch: true,
  allowFetch: true,
  allowAdvanced: true,
  allowImageSearch: true,
  allowImageFetch: true,
  maxResultsPerCall: 10,
});

/**
 * The caller's grant rides in the context like the other families'. An app call (`ctx.app`)
 * gets the App budgets (512 KiB per response); a plugin call the tighter twin budgets (8 000
 * chars per page, 256 KiB per response, R157).
 */
export type WebServiceContext = Omit<ServiceContext, "grant"> & { grant: WebGrant };

export interface WebService {
  search(params: WebSearchParams, ctx: WebServiceContext): Promise<WebSearchResult>;
  fetch(params: WebFetchParams, ctx: WebServiceContext): Promise<WebFetchResult>;
  imageSearch(params: WebImageSearchParams, ctx: WebServiceContext): Promise<WebImageSearchResult>;
  imageFetch(params: WebImageFetchParams, ctx: WebServiceContext): Promise<WebImageFetchResult>;
}
