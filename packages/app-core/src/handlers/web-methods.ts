// `web.*` (R152–R156): search, page fetch, image search and image fetch through the host's
// WebService — the one the plugins' `web/*` twin uses — under the user's `web_grant`
// (`DispatcherOptions.webGrant`; default DISABLED, so the first call answers `APP_NOT_GRANTED`,
// the consent-card trigger). The contract's argument schemas check shapes only (`invalid_arg`);
// caps are the service's and come back as `APP_INVALID_REQUEST`, as the Reference documents (R153).
import type { WebService, WebServiceContext } from "@anna-ai/executa-host";
import { callService, requireService } from "../dispatcher/service-errors.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { appServiceContext } from "./service-context.js";

function webContext(ctx: CallContext): WebServiceContext {
  return { ...appServiceContext(ctx, {}), grant: ctx.core.webGrant };
}

export function webMethods(): MethodTable {
  return {
    "web.search": contractMethod("web.search", (args, ctx) =>
      callService(ctx, () => requireService(ctx, "web").search(args, webContext(ctx))),
    ),
    "web.fetch": contractMethod("web.fetch", (args, ctx) =>
      callService(ctx, () =>
        requireService(ctx, "web").fetch(
          args as Parameters<WebService["fetch"]>[0],
          webContext(ctx),
        ),
      ),
    ),
    "web.image_search": contractMethod("web.image_search", (args, ctx) =>
      callService(ctx, () => requireService(ctx, "web").imageSearch(args, webContext(ctx))),
    ),
    "web.image_fetch": contractMethod("web.image_fetch", (args, ctx) =>
      callService(ctx, () => requireService(ctx, "web").imageFetch(args, webContext(ctx))),
    ),
  };
}
