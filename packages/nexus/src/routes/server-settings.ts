// What an admin reads and changes on the settings page about this server: the model of each
// purpose (changeable at run time: see copilot/model-settings.ts for the precedence env >
// database > file), the quota and the registry's switches (from the environment and flags of
// `anna-nexus start`). A provider key is write-only: answers say whether one is set, never it.
//   GET  /api/v1/super-admin/settings               → {llm, quota, registry, change}
//   GET  /api/v1/super-admin/settings/models        → the model settings, sources, pinned, audit
//   PUT  /api/v1/super-admin/settings/models        {settings, version} → the same, switched to
//   POST /api/v1/super-admin/settings/models/test   {settings?} → one tiny request's outcome
import type { CallPurpose } from "@anna-ai/agent";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env, Principal } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { requireCopilot } from "../copilot/copilot-services.js";
import { modelSettingsView } from "./model-settings-view.js";

const PURPOSES: readonly CallPurpose[] = ["chat", "agent", "sampling", "embeddings", "images"];

export function serverSettingsRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/settings", async (c) => {
    await requireAdmin(c, deps);
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
        "the models are changed here (PUT /api/v1/super-admin/settings/models) or by the environment (ANNA_LLM_*, which wins); the quota and registry switches come from anna-nexus start's environment (ANNA_LLM_QUOTA_*, ANNA_RELEASE_REVIEW, ANNA_SELF_SERVE_DEVELOPER): change them there and restart — see docs/agent.md",
    });
  });

  app.get("/settings/models", async (c) => {
    await requireAdmin(c, deps);
    const { copilot, models } = requireModels(deps);
    return c.json(await modelSettingsView(models, copilot.llmConfig()));
  });

  app.put("/settings/models", async (c) => {
    const p = await requireAdmin(c, deps);
    const { copilot, models } = requireModels(deps);
    const body = await readJson(c, PutModelsSchema);
    const candidate = models.candidate(body.settings);
    const config = await models.save(
      candidate,
      { userId: p.user.id, email: p.user.email },
      body.version,
    );
    await copilot.applyLlmConfig(config);
    return c.json(await modelSettingsView(models, config));
  });

  app.post("/settings/models/test", async (c) => {
    const p = await requireAdmin(c, deps);
    const { copilot, models } = requireModels(deps);
    const body = await readJson(c, TestModelsSchema);
    const config =
      body.settings === undefined
        ? copilot.llmConfig()
        : models.check(models.candidate(body.settings));
    const result = await copilot.testLlmConfig(config, String(p.user.id));
    return c.json(
      result.ok
        ? {
            ok: true,
            provider: result.provider,
            model: result.model,
            latency_ms: result.latencyMs,
            reply: result.reply,
          }
        : { ok: false, provider: result.provider, model: result.model, error: result.error },
    );
  });

  return app;
}

/** The admin's whole layer; `version` is the one the page read (409 when another save came first). */
const PutModelsSchema = z.object({
  settings: z.record(z.string(), z.unknown()),
  version: z.int().min(0).optional(),
});
const TestModelsSchema = z.object({ settings: z.record(z.string(), z.unknown()).optional() });

async function requireAdmin(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  if (!p.user.isAdmin) {
    throw new NexusError(
      "admin_required",
      "server settings are for platform admins; an operator grants it with `anna-nexus admin create-user --admin`",
    );
  }
  return p;
}

function requireModels(deps: AppDeps) {
  const copilot = requireCopilot(deps);
  if (copilot.models === undefined) {
    throw new NexusError(
      "unavailable",
      "this server's models are fixed by its start options; model settings are not editable here",
    );
  }
  return { copilot, models: copilot.models };
}
