// What the signed-in user spent on the LLM gateway, against this server's quota:
//   GET /api/v1/me/usage → {window, quota, used, remaining, by_app}
// `used` covers the quota's rolling window (what the next call is checked against); `by_app`
// splits it per (app, purpose), the app "" being the user's own chat. The dashboard's usage
// panel reads this; a script can too (a PAT needs no extra scope: it reads only its own rows).
import { Hono } from "hono";
import { requireCopilot } from "../copilot/copilot-services.js";
import type { UsageTotals } from "../copilot/sql-usage-ledger.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";

function totalsView(t: UsageTotals) {
  return {
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    total_tokens: t.totalTokens,
    images: t.images,
    calls: t.calls,
  };
}

const left = (cap: number | undefined, used: number): number | null =>
  cap === undefined ? null : Math.max(0, cap - used);

export function usageRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/me/usage", async (c) => {
    const { user } = await requireUser(c, deps);
    const { usage } = requireCopilot(deps);
    const { tokensPerUser, imagesPerUser, windowMs } = usage.quota;
    const since = deps.clock.now() - windowMs;
    const userId = String(user.id);
    const [used, lines] = await Promise.all([
      usage.totals({ userId, sinceMs: since }),
      usage.breakdown(userId, since),
    ]);
    return c.json({
      window: { hours: windowMs / 3_600_000, since: new Date(since).toISOString() },
      quota: { tokens: tokensPerUser ?? null, images: imagesPerUser ?? null },
      used: totalsView(used),
      remaining: {
        tokens: left(tokensPerUser, used.totalTokens),
        images: left(imagesPerUser, used.images),
      },
      by_app: lines.map((l) => ({ app_id: l.appId, purpose: l.purpose, ...totalsView(l) })),
    });
  });

  return app;
}
