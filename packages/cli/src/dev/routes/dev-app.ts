// The harness's one Hono application, in the order a request meets it: the Host guard (DNS
// rebinding), the request-target check, the page routes (which the app's iframe loads), the
// origin guard, then app-core's runtime wire and the developer routes. Hono runs middleware and
// handlers in the order they are added, so the origin guard covers only what comes after it.
import { Hono } from "hono";
import type { Logger } from "@anna-ai/jsonrpc";
import { errorAnswer, notFoundAnswer } from "@anna-ai/app-core/http";
import { hostGuard } from "../guard/host-guard.js";
import { addDevRoutes, type DevRouteDeps } from "./dev-routes.js";
import { originGuard } from "./origin-guard.js";
import { addPageRoutes, type PageRouteDeps } from "./page-routes.js";
import { requestTargetGuard, type DevEnv } from "./request-target.js";

export interface DevAppDeps {
  logger: Logger;
  /** The Host names answered; known once the port is. */
  hosts(): ReadonlySet<string>;
  origins(): { origin: string; localhostOrigin: string };
  pages: PageRouteDeps;
  /** app-core's runtime sub-application. */
  runtime: Hono;
  dev: DevRouteDeps;
}

export function createDevApp(deps: DevAppDeps): Hono<DevEnv> {
  const { logger } = deps;
  const app = new Hono<DevEnv>();
  app.onError((error, c) => errorAnswer(error, logger, c.req.url));
  app.notFound((c) => notFoundAnswer(c.req.method, c.req.url));
  app.use(async (c, next) => {
    await next();
    // The path only: a window URL's query carries its token.
    logger.debug("request", {
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
    });
  });
  app.use(hostGuard(deps.hosts));
  app.use(requestTargetGuard);
  addPageRoutes(app, deps.pages);
  app.use(originGuard(deps.origins));
  // Only the bundle answers HEAD (a page route above); Hono would run any GET route for it.
  app.use(async (c, next) => {
    if (c.req.method === "HEAD") return c.notFound();
    await next();
  });
  app.route("/", deps.runtime);
  addDevRoutes(app, deps.dev);
  return app;
}
