// `llm.*`, `agent.*`, `image.*`, `upload.*` (R104–R128): thin adapters onto the SAME host services
// the plugins' reverse RPCs use (`createOfflineSamplingService`, … in `anna-app dev`; Nexus-backed
// ones on the server), so each capability is implemented once. `llm: "off"` answers
// `llm_disabled` for llm.* and agent.* (A7).
import {
  AgentSessionCancelParamsSchema,
  AgentSessionDeleteParamsSchema,
  AgentSessionHistoryParamsSchema,
  AgentSessionListParamsSchema,
  AgentSessionRefreshParamsSchema,
  AgentSessionRunParamsSchema,
  EmbeddingsCreateParamsSchema,
  normalizeSamplingParams,
  SamplingCreateMessageParamsSchema,
  type AgentHostApiSpec,
  type SamplingCreateMessageParams,
} from "@anna-ai/app-schema";
import type { EmbeddingsGrant, HostServices } from "@anna-ai/executa-host";
import { z } from "zod";
import { HostApiError } from "../errors/host-api-error.js";
import { callService, requireService } from "../dispatcher/service-errors.js";
import { method, type CallContext, type MethodTable } from "../dispatcher/types.js";
import { appServiceContext } from "./service-context.js";
import { emitStream, newStreamId } from "./streams.js";

/** `max_tokens_per_call` when neither the app nor the grant sets one (R105). */
export const LLM_MAX_TOKENS_PER_CALL = 4096;

function service<K extends keyof HostServices>(ctx: CallContext, name: K): HostServices[K] {
  if (
    (name === "sampling" || name === "agent" || name === "embeddings") &&
    ctx.core.llm === "off"
  ) {
    throw new HostApiError(
      "llm_disabled",
      // The spec's wording first (L7623), then which call and how to turn it back on.
      `harness started with --no-llm: ${ctx.ns}.${ctx.method} is off in this session; drop --no-llm, or pass --mock-llm <fixture> for canned answers`,
    );
  }
  return requireService(ctx, name);
}

function samplingRequest(args: SamplingCreateMessageParams) {
  const requested = args.maxTokens ?? args.max_tokens ?? LLM_MAX_TOKENS_PER_CALL;
  // R119: silently clamped to the per-call cap.
  return normalizeSamplingParams({
    ...args,
    maxTokens: Math.min(requested, LLM_MAX_TOKENS_PER_CALL),
  });
}

/** `maxTokens` is optional for apps (R119): the per-call cap fills it in. */
const LlmArgs = z.preprocess((value) => {
  if (typeof value !== "object" || value === null) return value;
  const v = value as Record<string, unknown>;
  return v.maxTokens == null && v.max_tokens == null
    ? { ...v, maxTokens: LLM_MAX_TOKENS_PER_CALL }
    : v;
}, SamplingCreateMessageParamsSchema);

export function llmMethods(): MethodTable {
  return {
    "llm.complete": method(LlmArgs, (args, ctx) =>
      callService(ctx, () =>
        service(ctx, "sampling").createMessage(samplingRequest(args), appServiceContext(ctx, {})),
      ),
    ),
    "llm.stream": method(LlmArgs, async (args, ctx) => {
      const result = await callService(ctx, () =>
        service(ctx, "sampling").createMessage(samplingRequest(args), appServiceContext(ctx, {})),
      );
      const streamId = newStreamId();
      const content = result.content as { type?: string; text?: string };
      const text = content.type === "text" && typeof content.text === "string" ? content.text : "";
      // R120: model_token frames, then a terminal `complete` frame with the whole answer.
      const tokens = text.match(/\S+\s*|\s+/g) ?? [];
      emitStream(ctx, streamId, [
        ...tokens.map((t) => ({ event: "model_token", text: t })),
        { event: "complete", ...result },
      ]);
      return { stream_id: streamId };
    }),
    "llm.embed": method(
      EmbeddingsCreateParamsSchema.extend({ user: z.string().nullish() }),
      (args, ctx) =>
        callService(ctx, () =>
          service(ctx, "embeddings").create(
            { ...args, input: typeof args.input === "string" ? [args.input] : args.input },
            appServiceContext<EmbeddingsGrant>(ctx, {}),
          ),
        ),
    ),
  };
}

const CreateArgs = z.looseObject({
  submode: z.enum(["auto", "fixed"]),
  fixed_client_id: z.string().min(1).nullish(),
  fixedClientId: z.string().min(1).nullish(),
  label: z.string().max(120).nullish(),
  systemPrompt: z.string().max(32_000).nullish(),
  system_prompt: z.string().max(32_000).nullish(),
  quotaCaps: z.record(z.string(), z.unknown()).nullish(),
});

/** `ui.host_api.agent.session.{auto, fixed}` (R104, R107): each submode off until enabled. */
function checkSubmode(ctx: CallContext, submode: "auto" | "fixed", clientId: string | undefined) {
  const grant = ctx.core.acl.hostApi.agent;
  const spec = (Array.isArray(grant) ? {} : (grant ?? {})) as AgentHostApiSpec;
  if (submode === "auto") {
    if (spec.session?.auto !== true) {
      throw new HostApiError(
        "permission_denied",
        "agent submode 'auto' is not enabled in ui.host_api.agent.session",
      );
    }
    return;
  }
  const fixed = spec.session?.fixed;
  if (fixed === undefined || fixed === null || fixed === false) {
    throw new HostApiError(
      "permission_denied",
      "agent submode 'fixed' is not enabled in ui.host_api.agent.session",
    );
  }
  if (clientId === undefined) {
    throw new HostApiError("invalid_arg", "fixed_client_id required for submode 'fixed'");
  }
  const ids = typeof fixed === "object" ? (fixed.client_ids ?? []) : [];
  if (ids.length > 0 && !ids.includes(clientId)) {
    throw new HostApiError(
      "permission_denied",
      `fixed client ${JSON.stringify(clientId)} is not in ui.host_api.agent.session.fixed.client_ids`,
    );
  }
}

export function agentMethods(): MethodTable {
  const agent = (ctx: CallContext) => service(ctx, "agent");
  const sctx = (ctx: CallContext) => appServiceContext(ctx, {});
  return {
    "agent.session.create": method(CreateArgs, async (args, ctx) => {
      const clientId = args.fixed_client_id ?? args.fixedClientId ?? undefined;
      checkSubmode(ctx, args.submode, clientId);
      const systemPrompt = args.systemPrompt ?? args.system_prompt ?? undefined;
      return callService(ctx, () =>
        agent(ctx).sessionCreate(
          {
            agent_submode: args.submode,
            ...(clientId === undefined ? {} : { fixed_client_id: clientId }),
            ...(args.label == null ? {} : { label: args.label }),
            ...(systemPrompt === undefined ? {} : { system_prompt: systemPrompt }),
            ...(args.quotaCaps == null ? {} : { quota_caps: args.quotaCaps }),
          },
          sctx(ctx),
        ),
      );
    }),
    "agent.session.run": method(
      AgentSessionRunParamsSchema.extend({ content: z.string().trim().min(1, "content required") }),
      async (args, ctx) => {
        const result = await callService(ctx, () => agent(ctx).sessionRun(args, sctx(ctx)));
        const streamId = newStreamId();
        // R109: the terminal frame is always `{event: "end", run_id}` with done: true.
        emitStream(ctx, streamId, [...result.frames, { event: "end", run_id: result.run_id }]);
        return { stream_id: streamId, run_id: result.run_id };
      },
    ),
    "agent.session.cancel": method(AgentSessionCancelParamsSchema, (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionCancel(args, sctx(ctx))),
    ),
    "agent.session.history": method(AgentSessionHistoryParamsSchema, (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionHistory(args, sctx(ctx))),
    ),
    "agent.session.list": method(AgentSessionListParamsSchema, (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionList(args, sctx(ctx))),
    ),
    "agent.session.delete": method(AgentSessionDeleteParamsSchema, (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionDelete(args, sctx(ctx))),
    ),
    "agent.session.refresh": method(
      AgentSessionRefreshParamsSchema.extend({
        app_session_uuid: z.string().startsWith("aps_", "app_session_uuid must start with aps_"),
      }),
      (args, ctx) => callService(ctx, () => agent(ctx).sessionRefresh(args, sctx(ctx))),
    ),
    "agent.session.catalog": method(z.looseObject({}), async (_args, ctx) => {
      service(ctx, "agent");
      const grant = ctx.core.acl.hostApi.agent;
      const declared = (Array.isArray(grant) ? [] : (grant?.tools ?? [])) as string[];
      return {
        platform_tools: declared.map((name) => ({
          name,
          description: "",
          dev_safe: true,
          declared_in_manifest: true,
          user_granted: true,
          eligible: true,
        })),
        inherit_host_tools_granted: false,
        manifest_declared: declared,
        user_granted: declared,
      };
    }),
  };
}

const ImageOptions = {
  n: z.int().min(1).max(8).optional(),
  size: z.string().optional(),
  model_hint: z.string().optional(),
};

export function imageMethods(): MethodTable {
  const image = (ctx: CallContext) => service(ctx, "image");
  const grant = { generate: true, edit: true };
  return {
    "image.generate": method(
      z.looseObject({ prompt: z.string().min(1), ...ImageOptions }),
      (args, ctx) =>
        callService(ctx, () =>
          image(ctx).generate({ ...args, n: args.n ?? 1 }, appServiceContext(ctx, grant)),
        ),
    ),
    "image.edit": method(
      z.looseObject({
        prompt: z.string().min(1),
        image_ref: z.string().min(1).optional(),
        image_url: z.string().min(1).optional(),
        ...ImageOptions,
      }),
      async (args, ctx) => {
        const imageUrl = args.image_url ?? args.image_ref;
        if (imageUrl === undefined) throw new HostApiError("invalid_arg", "image_ref required");
        return callService(ctx, () =>
          image(ctx).edit(
            { ...args, image_url: imageUrl, n: args.n ?? 1 },
            appServiceContext(ctx, grant),
          ),
        );
      },
    ),
  };
}

export function uploadMethods(): MethodTable {
  const upload = (ctx: CallContext) => service(ctx, "upload");
  const purpose = (p: string | null | undefined) => p ?? "user_artifact";
  return {
    "upload.inline": method(
      z.looseObject({
        bytes_b64: z.string().min(1),
        mime: z.string().min(1),
        purpose: z.string().nullish(),
        filename: z.string().min(1).nullish(),
      }),
      (args, ctx) =>
        callService(ctx, () =>
          upload(ctx).inline(
            {
              mode: "inline",
              filename: args.filename ?? "upload",
              mime_type: args.mime,
              content_b64: args.bytes_b64,
              purpose: purpose(args.purpose),
            },
            appServiceContext(ctx, {}),
          ),
        ),
    ),
    "upload.negotiate": method(
      z.looseObject({
        filename: z.string().min(1).nullish(),
        mime_type: z.string().min(1).optional(),
        mime: z.string().min(1).optional(),
        size_bytes: z.int().positive().nullish(),
        purpose: z.string().nullish(),
      }),
      async (args, ctx) => {
        const mime = args.mime_type ?? args.mime;
        if (mime === undefined) throw new HostApiError("invalid_arg", "mime_type required");
        return callService(ctx, () =>
          upload(ctx).negotiate(
            {
              mode: "negotiate",
              filename: args.filename ?? "upload",
              mime_type: mime,
              ...(args.size_bytes == null ? {} : { expected_bytes: args.size_bytes }),
              purpose: purpose(args.purpose),
            },
            appServiceContext(ctx, {}),
          ),
        );
      },
    ),
    "upload.confirm": method(
      z.looseObject({ r2_key: z.string().min(1, "r2_key required") }),
      (args, ctx) =>
        callService(ctx, () =>
          upload(ctx).confirm({ mode: "confirm", r2_key: args.r2_key }, appServiceContext(ctx, {})),
        ),
    ),
  };
}
