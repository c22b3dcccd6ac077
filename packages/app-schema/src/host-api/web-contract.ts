// `web.*` (R152–R156) under the user's `web_grant`: the argument schemas check shapes only; caps
// are the WebService's and come back as `APP_INVALID_REQUEST`, as the Reference documents (R153).
import { z } from "zod";
import {
  WebFetchResultSchema,
  WebImageFetchResultSchema,
  WebImageSearchResultSchema,
  WebSearchResultSchema,
} from "../executa/web.js";
import { hostMethod, SERVICE_ERROR_CODES, lazySchema } from "./method-contract.js";

const count = lazySchema(() => z.number().nullish());
const text = lazySchema(() => z.string().nullish());

export const WEB_CONTRACT = {
  "web.search": hostMethod(
    () =>
      z.looseObject({
        query: z.string(),
        max_results: count(),
        search_depth: z.enum(["basic", "advanced"]).nullish(),
        topic: text(),
        time_range: text(),
        region: text(),
        include_domains: z.array(z.string()).nullish(),
        exclude_domains: z.array(z.string()).nullish(),
      }),
    () => WebSearchResultSchema,
    SERVICE_ERROR_CODES,
  ),
  "web.fetch": hostMethod(
    () =>
      z.looseObject({
        urls: z.array(z.string()),
        format: text(),
        max_chars: count(),
        timeout_ms: count(),
      }),
    () => WebFetchResultSchema,
    SERVICE_ERROR_CODES,
  ),
  /** Also spelled `web.imageSearch` (R155). */
  "web.image_search": hostMethod(
    () =>
      z.looseObject({
        query: z.string(),
        max_results: count(),
        min_width: count(),
        min_height: count(),
        aspect: z.enum(["any", "wide", "tall", "square"]).nullish(),
        safe_search: z.boolean().nullish(),
      }),
    () => WebImageSearchResultSchema,
    SERVICE_ERROR_CODES,
  ),
  /** Also spelled `web.imageFetch` (R156). */
  "web.image_fetch": hostMethod(
    () => z.looseObject({ url: z.string(), max_bytes: count(), purpose: text() }),
    () => WebImageFetchResultSchema,
    SERVICE_ERROR_CODES,
  ),
} as const;
