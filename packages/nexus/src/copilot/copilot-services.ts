// `AppDeps.copilot`: the LLM gateway and what the copilot endpoints keep beside it. Built once
// where the server assembles its deps (cli/start.ts), on the server's database and blob store.
import {
  createGatewayEmbeddingsService,
  createGatewaySamplingService,
  openLlmGateway,
  type LlmConfig,
  type LlmGateway,
} from "@anna-ai/agent";
import type { EmbeddingsService, SamplingService } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { NexusConfig } from "../core/config.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import { AgentRuns } from "./agent-runs.js";
import { CopilotSessionStore } from "./copilot-session-store.js";
import { type HostUploadLimits, type HostUploads, hostUploads } from "./host-upload.js";
import { SqlUsageLedger } from "./sql-usage-ledger.js";

export interface CopilotServices {
  db: Kysely<Database>;
  gateway: LlmGateway;
  usage: SqlUsageLedger;
  sessions: CopilotSessionStore;
  runs: AgentRuns;
  sampling: SamplingService;
  embeddings: EmbeddingsService;
  /** Absent without a blob store: the upload endpoints answer 503. */
  uploads: HostUploads | undefined;
  /**
   * The same sampling and embeddings for the app runtime's `llm.*`: a window's usage is
   * accounted under `app:<id>`, as its HTTP sessions' is.
   */
  runtimeServices(): { sampling: SamplingService; embeddings: EmbeddingsService };
}

/** The dispatcher names an app by its id; usage names a window's app `app:<id>` everywhere. */
function asWindowApp<C extends { app?: { appId: string; appScopeGranted: boolean } }>(ctx: C): C {
  return ctx.app === undefined
    ? ctx
    : { ...ctx, app: { ...ctx.app, appId: `app:${ctx.app.appId}` } };
}

/** The copilot services, or 503 naming what is missing. */
export function requireCopilot(deps: { copilot?: CopilotServices }): CopilotServices {
  if (!deps.copilot) {
    throw new NexusError("unavailable", "the LLM gateway is not configured on this server");
  }
  return deps.copilot;
}

export interface OpenCopilotOptions {
  db: Kysely<Database>;
  llm: LlmConfig;
  quota: NexusConfig["llmQuota"];
  clock: () => number;
  blobs?: BlobStore;
  uploadLimits?: HostUploadLimits;
  /** Replaces `fetch` for provider calls (tests). */
  fetch?: typeof globalThis.fetch;
}

export async function openCopilot(options: OpenCopilotOptions): Promise<CopilotServices> {
  const usage = new SqlUsageLedger(options.db, options.quota, options.clock);
  const gateway = await openLlmGateway({
    config: options.llm,
    usage,
    quota: usage,
    clock: options.clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sampling = createGatewaySamplingService({ gateway, clock: options.clock });
  const embeddings = createGatewayEmbeddingsService({
    gateway,
    dimensions: options.llm.embeddings.dimensions,
  });
  return {
    db: options.db,
    gateway,
    usage,
    sessions: new CopilotSessionStore(options.db),
    runs: new AgentRuns(),
    sampling,
    embeddings,
    runtimeServices: () => ({
      sampling: {
        createMessage: (request, ctx) => sampling.createMessage(request, asWindowApp(ctx)),
      },
      embeddings: { create: (params, ctx) => embeddings.create(params, asWindowApp(ctx)) },
    }),
    uploads: options.blobs
      ? hostUploads(options.db, options.blobs, options.clock, options.uploadLimits)
      : undefined,
  };
}
