import { Hono } from "hono";
import type { AppDeps, Env } from "../http/context.js";

export function healthRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // Every dependency is checked (in parallel) so the answer names each one that is down.
  app.get("/readyz", async (c) => {
    const probes: [string, () => Promise<void>][] = [["database", deps.pingDatabase]];
    const blobs = deps.storage?.blobs;
    if (blobs) probes.push(["blob_store", () => blobs.ping()]);
    const checks: Record<string, string> = {};
    await Promise.all(
      probes.map(async ([name, probe]) => {
        try {
          await probe();
          checks[name] = "ok";
        } catch (err) {
          checks[name] = "unreachable";
          deps.logger.log("warn", "readiness check failed", { check: name, error: String(err) });
        }
      }),
    );
    const ready = Object.values(checks).every((v) => v === "ok");
    return ready
      ? c.json({ status: "ready", checks })
      : c.json({ status: "unavailable", checks }, 503);
  });
  return app;
}
