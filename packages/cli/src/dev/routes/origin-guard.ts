import type { MiddlewareHandler } from "hono";
import { HttpError } from "@anna-ai/app-core/http";

/**
 * Everything past the bundle and the SDK is the dashboard's: a request that names another
 * origin — the app's sandboxed iframe (`null`), or any site open in the same browser — gets
 * 403, whatever its method or content type (a text/plain POST needs no CORS preflight).
 * Clients without an Origin header (curl, tests, scripts) are the developer's own. The page
 * may be open as localhost too; a DNS-rebound name is not accepted.
 *
 * Registered after the page routes, so it guards the routes registered after it.
 */
export function originGuard(
  origins: () => {
    origin: string;
    localhostOrigin: string;
  },
): MiddlewareHandler {
  return async (c, next) => {
    const { origin, localhostOrigin } = origins();
    const from = c.req.header("origin");
    if (from !== undefined && from !== origin && from !== localhostOrigin) {
      throw new HttpError(
        "forbidden_origin",
        `${c.req.method} ${new URL(c.req.url).pathname} is answered for the dashboard (${origin}), not for ${from}`,
      );
    }
    await next();
  };
}
