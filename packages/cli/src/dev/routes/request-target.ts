// The harness's request-target guard on app-core's raw request target (the adapter hands Hono a
// normalised URL; the bundle's path checks and the "not a path" refusal need the raw one).
import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import { HttpError, rawPathOf, rawTargetOf } from "@anna-ai/app-core/http";

/** The harness's Hono environment: served by @hono/node-server. */
export interface DevEnv {
  Bindings: HttpBindings;
}

export { rawPathOf, rawTargetOf };

/** `//`, `//host:bad` …: a request line no route can name is the client's error, not ours. */
export const requestTargetGuard: MiddlewareHandler<DevEnv> = async (c, next) => {
  const target = rawTargetOf(c);
  if (!URL.canParse(target, "http://localhost")) {
    throw new HttpError("invalid_path", `not a request path: ${target}`);
  }
  await next();
};
