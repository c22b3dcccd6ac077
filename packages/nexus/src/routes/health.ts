// Probes for a load balancer or orchestrator, one pair per node. No auth and no Host check
// (guards.ts exempts them): a prober addresses the node by its IP. Bodies name each check and
// its state in a word, never an error text, a URL or a path.
import { Hono } from "hono";
import type { AppDeps, Env, ReadinessCheck } from "../http/context.js";

/** A check that has not answered by then counts as down: a prober must get an answer in time. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export function healthRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  // Liveness: the process answers HTTP. Touches nothing, so a slow database cannot get a live
  // node restarted.
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // Every check runs in parallel so the answer names each one that is down.
  app.get("/readyz", async (c) => {
    const checks: ReadinessCheck[] = [
      { name: "database", required: true, probe: ok(deps.pingDatabase) },
    ];
    const blobs = deps.storage?.blobs;
    if (blobs) checks.push({ name: "blob_store", required: true, probe: ok(() => blobs.ping()) });
    checks.push(...(deps.readiness ?? []));
    const states: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      checks.map(async (check) => {
        const state = await withTimeout(check.probe(), READINESS_CHECK_TIMEOUT_MS).catch(
          (err: unknown) => {
            deps.logger.log("warn", "readiness check failed", {
              check: check.name,
              request_id: c.get("requestId"),
              error: String(err),
            });
            return err instanceof ProbeTimeout ? "timeout" : "unreachable";
          },
        );
        states[check.name] = state;
        if (check.required && state !== "ok" && !check.alsoReady?.includes(state)) ready = false;
      }),
    );
    // Sorted, so the body is the same whichever check answered first.
    const body = Object.fromEntries(Object.entries(states).sort(([a], [b]) => a.localeCompare(b)));
    return ready
      ? c.json({ status: "ready", checks: body })
      : c.json({ status: "unavailable", checks: body }, 503);
  });
  return app;
}

function ok(probe: () => Promise<void>): () => Promise<string> {
  return async () => {
    await probe();
    return "ok";
  };
}

class ProbeTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "ProbeTimeout";
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(ms)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
