// The request target exactly as the client sent it. The adapter hands Hono a normalised URL
// (`/a/../b` resolved, escapes partly decoded); the bundle's path checks and the harness's "not a
// path" refusal need the raw one, which node:http keeps on the incoming message.
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "@anna-ai/app-core/http";

/** The harness's Hono environment: served by @hono/node-server. */
export interface DevEnv {
  Bindings: HttpBindings;
}

/** The raw request target (path and query); the URL's own when not served over node:http. */
export function rawTargetOf(c: Context<DevEnv>): string {
  const url = new URL(c.req.url);
  return c.env?.incoming?.url ?? `${url.pathname}${url.search}`;
}

/** The raw path, still percent-encoded. */
export function rawPathOf(c: Context<DevEnv>): string {
  return rawTargetOf(c).split("?", 1)[0] ?? "/";
}

/** `//`, `//host:bad` …: a request line no route can name is the client's error, not ours. */
export const requestTargetGuard: MiddlewareHandler<DevEnv> = async (c, next) => {
  const target = rawTargetOf(c);
  if (!URL.canParse(target, "http://localhost")) {
    throw new HttpError("invalid_path", `not a request path: ${target}`);
  }
  await next();
};
