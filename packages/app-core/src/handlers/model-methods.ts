// `llm.*`, `agent.*`, `image.*`, `upload.*` (R104–R128): thin adapters onto the SAME host services
// the plugins' reverse RPCs use (`createOfflineSamplingService`, … in `anna-app dev`; Nexus-backed
// ones on the server), so each capability is implemented once. `llm: "off"` answers
// `llm_disabled` for llm.* and agent.* (A7).
import {
  normalizeSamplingParams,
  type AgentHostApiSpec,
  type SamplingCreateMessageParams,
  type UiHostApi,
} from "@anna-ai/app-schema";
import { LLM_MAX_TOKENS_PER_CALL } from "@anna-ai/app-schema/host-api";
import type { EmbeddingsGrant, HostServices } from "@anna-ai/executa-host";
import { HostApiError } from "../errors/host-api-error.js";
import { callService, requireService } from "../dispatcher/service-errors.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { appServiceContext } from "./service-context.js";
import { runToWindowStream } from "./agent-run-stream.js";
import { emitStream, newStreamId } from "./streams.js";

/** `max_tokens_per_call` when neither the app nor the grant sets one (R105); the contract's. */
export { LLM_MAX_TOKENS_PER_CALL };

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

export function llmMethods(): MethodTable {
  return {
    "llm.complete": contractMethod("llm.complete", (args, ctx) =>
      callService(ctx, () =>
        service(ctx, "sampling").createMessage(samplingRequest(args), appServiceContext(ctx, {})),
      ),
    ),
    "llm.stream": contractMethod("llm.stream", async (args, ctx) => {
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
    "llm.embed": contractMethod("llm.embed", (args, ctx) =>
      callService(ctx, () =>
        service(ctx, "embeddings").create(
          { ...args, input: typeof args.input === "string" ? [args.input] : args.input },
          appServiceContext<EmbeddingsGrant>(ctx, {}),
        ),
      ),
    ),
  };
}

/** `ui.host_api.agent.session.{auto, fixed}` (R104, R107): each submode off until enabled. */
function checkSubmode(ctx: CallContext, submode: "auto" | "fixed", clientId: string | undefined) {
  checkAgentSubmode(ctx.core.acl.hostApi.agent, submode, clientId);
}

/**
 * The submode gate on a manifest's `ui.host_api.agent` grant, for every host that creates app
 * agent sessions (this dispatcher, Nexus's `POST /copilot/app/sessions` for a window).
 */
export function checkAgentSubmode(
  grant: UiHostApi["agent"] | undefined,
  submode: "auto" | "fixed",
  clientId: string | undefined,
): void {
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
    "agent.session.create": contractMethod("agent.session.create", async (args, ctx) => {
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
    "agent.session.run": contractMethod("agent.session.run", (args, ctx) =>
      runToWindowStream(ctx, (live, signal) =>
        agent(ctx).sessionRun(args, { ...sctx(ctx), signal }, live),
      ),
    ),
    "agent.session.cancel": contractMethod("agent.session.cancel", (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionCancel(args, sctx(ctx))),
    ),
    "agent.session.history": contractMethod("agent.session.history", (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionHistory(args, sctx(ctx))),
    ),
    "agent.session.list": contractMethod("agent.session.list", (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionList(args, sctx(ctx))),
    ),
    "agent.session.delete": contractMethod("agent.session.delete", (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionDelete(args, sctx(ctx))),
    ),
    "agent.session.refresh": contractMethod("agent.session.refresh", (args, ctx) =>
      callService(ctx, () => agent(ctx).sessionRefresh(args, sctx(ctx))),
    ),
    "agent.session.catalog": contractMethod("agent.session.catalog", async (_args, ctx) => {
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

export function imageMethods(): MethodTable {
  const image = (ctx: CallContext) => service(ctx, "image");
  const grant = { generate: true, edit: true };
  return {
    "image.generate": contractMethod("image.generate", (args, ctx) =>
      callService(ctx, () =>
        image(ctx).generate({ ...args, n: args.n ?? 1 }, appServiceContext(ctx, grant)),
      ),
    ),
    "image.edit": contractMethod("image.edit", async (args, ctx) => {
      const imageUrl = args.image_url ?? args.image_ref;
      if (imageUrl === undefined) throw new HostApiError("invalid_arg", "image_ref required");
      return callService(ctx, () =>
        image(ctx).edit(
          { ...args, image_url: imageUrl, n: args.n ?? 1 },
          appServiceContext(ctx, grant),
        ),
      );
    }),
  };
}

export function uploadMethods(): MethodTable {
  const upload = (ctx: CallContext) => service(ctx, "upload");
  const purpose = (p: string | null | undefined) => p ?? "user_artifact";
  return {
    "upload.inline": contractMethod("upload.inline", (args, ctx) =>
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
    "upload.negotiate": contractMethod("upload.negotiate", async (args, ctx) => {
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
    }),
    "upload.confirm": contractMethod("upload.confirm", (args, ctx) =>
      callService(ctx, () =>
        upload(ctx).confirm({ mode: "confirm", r2_key: args.r2_key }, appServiceContext(ctx, {})),
      ),
    ),
  };
}
