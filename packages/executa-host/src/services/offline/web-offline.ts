// The offline web service (R152–R157). `fetch` and `image_fetch` really go out over HTTP through
// the SSRF-guarded fetcher; `search` and `image_search` have no provider offline, so they answer
// from mock-fixture lines (`{"ns":"web","method":"search","match":{…},"result":{…}}`) or fail
// with WEB_PROVIDER_ERROR naming where such a line goes. Grants, caps, per-item failures and error
// codes are the production ones; nothing is billed (`quota_consumed: 0`, as dev calls, R152).
import type { FilesService } from "../files-service.js";
import type { WebService } from "../web-service.js";
import type { MockFixture } from "./mock-fixture.js";
import { webFetch } from "./web-fetch.js";
import { webImageFetch } from "./web-image-fetch.js";
import { createWebSearch, type WebSearchSource } from "./web-search.js";
import { SsrfPolicy, type Resolver } from "./web-ssrf.js";

export interface OfflineWebOptions {
  /** Answers for `web/search` and `web/image_search`; without one they fail, naming `fixtureHint`. */
  fixture?: MockFixture;
  /** A real search source (a server's provider) instead of the fixture. */
  source?: WebSearchSource;
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

export function createOfflineWebService(options: OfflineWebOptions = {}): WebService {
  const policy = new SsrfPolicy({
    ...(options.allowLoopback === undefined ? {} : { allowLoopback: options.allowLoopback }),
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
  });
  const clock = options.clock ?? Date.now;
  const hint =
    options.fixtureHint ?? 'a mock fixture line {"ns":"web","method":"search","result":{…}}';
  const { search, imageSearch } = createWebSearch({
    fixture: options.fixture,
    source: options.source,
    hint,
    clock,
  });
  return {
    search,
    fetch: (params, ctx) => webFetch(params, ctx, policy),
    imageSearch,
    imageFetch: (params, ctx) => webImageFetch(params, ctx, policy, options.files),
  };
}
