import { Hono } from "hono";
import type { AppDeps, Env } from "../http/context.js";

export function healthRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await deps.pingDatabase();
      return c.json({ status: "ready", checks: { database: "ok" } });
    } catch (err) {
      deps.logger.log("warn", "readiness check failed", { check: "database", error: String(err) });
      return c.json({ status: "unavailable", checks: { database: "unreachable" } }, 503);
    }
  });
  return app;
}
