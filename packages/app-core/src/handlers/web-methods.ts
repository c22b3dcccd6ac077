// `web.*` (R152–R156): search, page fetch, image search and image fetch through the host's
// WebService — the one the plugins' `web/*` twin uses — under the user's `web_grant`
// (`DispatcherOptions.webGrant`; default DISABLED, so the first call answers `APP_NOT_GRANTED`,
// the consent-card trigger). The argument schemas here check shapes only (`invalid_arg`); caps
// are the service's and come back as `APP_INVALID_REQUEST`, as the Reference documents (R153).
import type { WebService, WebServiceContext } from "@anna-ai/executa-host";
import { z } from "zod";
import { callService, requireService } from "../dispatcher/service-errors.js";
import { method, type CallContext, type MethodTable } from "../dispatcher/types.js";
import { appServiceContext } from "./service-context.js";

function webContext(ctx: CallContext): WebServiceContext {
  return { ...appServiceContext(ctx, {}), grant: ctx.core.webGrant };
}

const count = z.number().nullish();
const text = z.string().nullish();

export function webMethods(): MethodTable {
  return {
    "web.search": method(
      z.looseObject({
        query: z.string(),
        max_results: count,
        search_depth: z.enum(["basic", "advanced"]).nullish(),
        topic: text,
        time_range: text,
        region: text,
        include_domains: z.array(z.string()).nullish(),
        exclude_domains: z.array(z.string()).nullish(),
      }),
      (args, ctx) =>
        callService(ctx, () => requireService(ctx, "web").search(args, webContext(ctx))),
    ),
    "web.fetch": method(
      z.looseObject({
        urls: z.array(z.string()),
        format: text,
        max_chars: count,
        timeout_ms: count,
      }),
      (args, ctx) =>
        callService(ctx, () =>
          requireService(ctx, "web").fetch(
            args as Parameters<WebService["fetch"]>[0],
            webContext(ctx),
          ),
        ),
    ),
    "web.image_search": method(
      z.looseObject({
        query: z.string(),
        max_results: count,
        min_width: count,
        min_height: count,
        aspect: z.enum(["any", "wide", "tall", "square"]).nullish(),
        safe_search: z.boolean().nullish(),
      }),
      (args, ctx) =>
        callService(ctx, () => requireService(ctx, "web").imageSearch(args, webContext(ctx))),
    ),
    "web.image_fetch": method(
      z.looseObject({ url: z.string(), max_bytes: count, purpose: text }),
      (args, ctx) =>
        callService(ctx, () => requireService(ctx, "web").imageFetch(args, webContext(ctx))),
    ),
  };
}
