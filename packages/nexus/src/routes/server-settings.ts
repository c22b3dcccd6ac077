// What an admin reads on the settings page about this server: the model of each purpose, the
// quota, the registry's switches. Read-only: they come from the environment and flags of
// `anna-nexus start` (a secret such as the provider key is never part of it), so changing one
// means changing the deployment and restarting, which the answer says.
//   GET /api/v1/super-admin/settings → {llm, quota, registry, change}
import type { CallPurpose } from "@anna-ai/agent";
import { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";

const PURPOSES: readonly CallPurpose[] = ["chat", "agent", "sampling", "embeddings", "images"];

export function serverSettingsRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/settings", async (c) => {
    const p = await requireUser(c, deps);
    requireScopes(p, ["aps:dev"]);
    if (!p.user.isAdmin) {
      throw new NexusError(
        "admin_required",
        "server settings are for platform admins; an operator grants it with `anna-nexus admin create-user --admin`",
      );
    }
    const gateway = deps.copilot?.gateway;
    const llm =
      gateway === undefined
        ? null
        : Object.fromEntries(
            PURPOSES.map((purpose) => {
              const m = gateway.modelFor(purpose);
              return [purpose, { provider: m.provider, model: m.model === "" ? null : m.model }];
            }),
          );
    const { llmQuota, appLimits } = deps.config;
    return c.json({
      llm,
      offline: llm !== null && Object.values(llm).every((m) => m.provider === "offline"),
      quota: {
        tokens_per_user: llmQuota.tokensPerUser ?? null,
        images_per_user: llmQuota.imagesPerUser ?? null,
        window_hours: llmQuota.windowMs / 3_600_000,
      },
      registry: {
        release_review: appLimits.releaseReview,
        self_serve_developer: deps.config.selfServeDeveloper,
        developer_terms_version: deps.config.developerTosVersion,
      },
      change:
        "these come from anna-nexus start's environment (ANNA_LLM_*, ANNA_LLM_QUOTA_*, ANNA_RELEASE_REVIEW, ANNA_SELF_SERVE_DEVELOPER); change them there and restart — see docs/agent.md",
    });
  });

  return app;
}
