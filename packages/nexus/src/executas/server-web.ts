// `web/*` for the server's plugins and `web.*` for its windows: fetch and image fetch really go
// out through the SSRF-guarded fetcher (the dev tools' own, with its caps and per-item failures),
// search goes to the server's search provider (the one chat's web_search uses; off by default),
// and image search, which no provider here offers, says so. The user's `web_grant` still decides
// what may run at all (the grant policy and the service's own checks).
import type { SearchProvider } from "@anna-ai/agent";
import { SEARCH_CONFIG_HINT } from "@anna-ai/agent";
import type { WebImageSearchParams, WebSearchParams } from "@anna-ai/app-schema";
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import {
  catalogError,
  createOfflineWebService,
  type FilesService,
  type WebService,
} from "@anna-ai/executa-host";

/** `web/search` results when the caller names none (the family's default is 5). */
const DEFAULT_RESULTS = 5;

function site(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

export function serverWebService(options: {
  search: SearchProvider | undefined;
  files?: FilesService;
}): WebService {
  const { search } = options;
  return createOfflineWebService({
    ...(options.files === undefined ? {} : { files: options.files }),
    fixtureHint: "a search provider on this server",
    async source(method, params, ctx) {
      if (method === "web/image_search" || search === undefined) {
        throw catalogError(
          WEB_ERRORS.PROVIDER_ERROR,
          method === "web/image_search"
            ? "web/image_search: this server has no image search provider"
            : `web/search: no search provider is configured on this server; an operator can ${SEARCH_CONFIG_HINT}`,
          { reason: "NO_PROVIDER" },
        );
      }
      const p = params as WebSearchParams | WebImageSearchParams;
      const hits = await search.search(
        {
          query: p.query,
          maxResults: p.max_results ?? DEFAULT_RESULTS,
          topic: "general",
          includeDomains: (p as WebSearchParams).include_domains ?? [],
          excludeDomains: (p as WebSearchParams).exclude_domains ?? [],
        },
        ctx.signal,
      );
      return {
        results: hits.map((h) => ({
          title: h.title,
          url: h.url,
          snippet: h.snippet,
          site: site(h.url),
          ...(h.publishedAt === undefined ? {} : { published_at: h.publishedAt }),
        })),
        provider_tier: search.name,
      };
    },
  });
}
