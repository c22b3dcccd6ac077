// `AppDeps.copilot`: the LLM gateway and what the copilot endpoints keep beside it. Built once
// where the server assembles its deps (cli/start.ts), on the server's database and blob store.
import {
  createGatewayEmbeddingsService,
  createGatewayImageService,
  createGatewaySamplingService,
  imageEditSource,
  openLlmGateway,
  switchableGateway,
  testLlmConnection,
  type ConnectionTestResult,
  type LlmConfig,
  type LlmGateway,
} from "@anna-ai/agent";
import type {
  AgentService,
  EmbeddingsService,
  ImageService,
  SamplingService,
} from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { NexusConfig } from "../core/config.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import { AgentRuns } from "./agent-runs.js";
import { copilotAgentService } from "./agent-service.js";
import { CopilotSessionStore } from "./copilot-session-store.js";
import { type HostUploadLimits, type HostUploads, hostUploads } from "./host-upload.js";
import { blobImageStore } from "./image-blobs.js";
import { ModelSettings, type ModelSettingsOptions } from "./model-settings.js";
import { SqlUsageLedger } from "./sql-usage-ledger.js";

export interface CopilotServices {
  db: Kysely<Database>;
  /** Always the same object: a change of the model settings switches what it calls. */
  gateway: LlmGateway;
  /** The configuration the gateway runs on now. */
  llmConfig(): LlmConfig;
  /** The admin's model settings (file < database < env); absent when built from a bare config. */
  models: ModelSettings | undefined;
  /** Opens a gateway on `config` and switches every caller to it; running calls finish as they were. */
  applyLlmConfig(config: LlmConfig): Promise<void>;
  /** One tiny chat request on `config` (the admin's "Test connection"). */
  testLlmConfig(config: LlmConfig, userId: string): Promise<ConnectionTestResult>;
  usage: SqlUsageLedger;
  sessions: CopilotSessionStore;
  runs: AgentRuns;
  sampling: SamplingService;
  embeddings: EmbeddingsService;
  /** Absent without a blob store: the upload endpoints answer 503. */
  uploads: HostUploads | undefined;
  /**
   * Plugins' `agent/session.*` and `agent/complete` (the executa pool's `agent` service): a
   * session belongs to (user, executa), its runs and usage are the HTTP endpoints' own.
   */
  agent: AgentService;
  /**
   * Plugins' `image/generate` and `image/edit` on the images model; images go to the blob store
   * (signed URLs), or `data:` URLs on a server without one. Edit reads its input from this
   * server's own image URLs or public HTTPS ones; images models that cannot edit answer -32311.
   */
  image: ImageService;
  /**
   * The same sampling, embeddings and agent sessions for the app runtime's `llm.*` and
   * `agent.*`: a window's usage is accounted under `app:<id>`, as its HTTP sessions' is, and
   * its agent sessions are the ones `/copilot/app/sessions` made for it.
   */
  runtimeServices(): {
    sampling: SamplingService;
    embeddings: EmbeddingsService;
    agent: AgentService;
    image: ImageService;
  };
}

/** The dispatcher names an app by its id; usage names a window's app `app:<id>` everywhere. */
function asWindowApp<C extends { app?: { appId: string; appScopeGranted: boolean } }>(ctx: C): C {
  return ctx.app === undefined
    ? ctx
    : { ...ctx, app: { ...ctx.app, appId: `app:${ctx.app.appId}` } };
}

/** Every agent call of a window with its app named `app:<id>`, as the usage ledger names it. */
function windowAgentService(agent: AgentService): AgentService {
  return {
    sessionCreate: (p, ctx) => agent.sessionCreate(p, asWindowApp(ctx)),
    sessionRun: (p, ctx, live) => agent.sessionRun(p, asWindowApp(ctx), live),
    sessionCancel: (p, ctx) => agent.sessionCancel(p, asWindowApp(ctx)),
    sessionHistory: (p, ctx) => agent.sessionHistory(p, asWindowApp(ctx)),
    sessionList: (p, ctx) => agent.sessionList(p, asWindowApp(ctx)),
    sessionRefresh: (p, ctx) => agent.sessionRefresh(p, asWindowApp(ctx)),
    sessionDelete: (p, ctx) => agent.sessionDelete(p, asWindowApp(ctx)),
    complete: (p, ctx) => agent.complete(p, asWindowApp(ctx)),
  };
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
  /** No agent session outlives this (a plugin's or a window's). Default 24 h, as the dev tools. */
  agentSessionMaxLifetimeMs?: number;
  /** Replaces `fetch` for provider calls (tests). */
  fetch?: typeof globalThis.fetch;
  /**
   * The layers of the model settings; with them, the stored admin settings are read and `llm`
   * is only the fallback the file and env give before the database opened.
   */
  models?: Omit<ModelSettingsOptions, "db" | "clock">;
  /** Origins of this server's own image URLs, which `image/edit` reads back directly. */
  imageOrigins?: () => readonly string[];
}

export async function openCopilot(options: OpenCopilotOptions): Promise<CopilotServices> {
  const usage = new SqlUsageLedger(options.db, options.quota, options.clock);
  const models = options.models
    ? new ModelSettings({ ...options.models, db: options.db, clock: options.clock })
    : undefined;
  let current = models ? await models.load() : options.llm;
  const open = (config: LlmConfig) =>
    openLlmGateway({
      config,
      usage,
      quota: usage,
      clock: options.clock,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const gateway = switchableGateway(await open(current));
  const sampling = createGatewaySamplingService({ gateway, clock: options.clock });
  const embeddings = createGatewayEmbeddingsService({
    gateway,
    dimensions: () => current.embeddings.dimensions,
  });
  const shared = {
    db: options.db,
    gateway,
    usage,
    sessions: new CopilotSessionStore(options.db),
    runs: new AgentRuns(),
    sampling,
    clock: options.clock,
  };
  const agentOptions =
    options.agentSessionMaxLifetimeMs === undefined
      ? {}
      : { maxLifetimeMs: options.agentSessionMaxLifetimeMs };
  const agent = copilotAgentService(shared, { origin: "sampling", ...agentOptions });
  const image = createGatewayImageService({
    gateway,
    ...(options.blobs ? { store: blobImageStore(options.blobs) } : {}),
    source: imageEditSource({ trustedOrigins: options.imageOrigins ?? (() => []) }),
  });
  const windowAgent = windowAgentService(
    copilotAgentService(shared, { origin: "window", ...agentOptions }),
  );
  return {
    db: shared.db,
    gateway,
    llmConfig: () => current,
    models,
    async applyLlmConfig(config) {
      // Opened first: a fixture that fails to load leaves the running configuration in place.
      const next = await open(config);
      current = config;
      gateway.switchTo(next);
    },
    testLlmConfig: (config, userId) =>
      testLlmConnection(config, { userId, ...(options.fetch ? { fetch: options.fetch } : {}) }),
    usage,
    sessions: shared.sessions,
    runs: shared.runs,
    sampling,
    embeddings,
    agent,
    image,
    runtimeServices: () => ({
      sampling: {
        createMessage: (request, ctx) => sampling.createMessage(request, asWindowApp(ctx)),
      },
      embeddings: { create: (params, ctx) => embeddings.create(params, asWindowApp(ctx)) },
      agent: windowAgent,
      image: {
        generate: (params, ctx) => image.generate(params, asWindowApp(ctx)),
        edit: (params, ctx) => image.edit(params, asWindowApp(ctx)),
      },
    }),
    uploads: options.blobs
      ? hostUploads(options.db, options.blobs, options.clock, options.uploadLimits)
      : undefined,
  };
}
