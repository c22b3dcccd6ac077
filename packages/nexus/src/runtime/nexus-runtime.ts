// The app runtime as the server runs it: app-core's multi-tenant dispatcher on the SQL stores
// (windows, tool jobs, chat, deck), the catalogue resolvers, window tokens from the server's
// keyring, `storage.*` on the server's APS storage (the `app` scope of that user and app), and
// `llm.*`, `agent.*` and `image.*` on the server's LLM gateway.
// Nothing a second node needs lives in this process; only app-core's per-process counters
// (in-flight calls, running jobs' abort controllers) do, and the event bus unless `events` is
// one the nodes share (bus/nats-event-bus.ts).
import {
  type AppsCatalog,
  createEventBus,
  createMultiTenantDispatcher,
  type EventBus,
  type MultiTenantDispatcher,
  sequencedEventBus,
  type SequencedEventBus,
  type ToolHost,
} from "@anna-ai/app-core";
import { SseStreams, type WindowUrl } from "@anna-ai/app-core/http";
import type {
  AgentService,
  CredentialsService,
  EmbeddingsService,
  ImageService,
  SamplingService,
  StorageService,
  WebService,
} from "@anna-ai/executa-host";
import type { Logger as RuntimeLogger } from "@anna-ai/jsonrpc";
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import type { SigningKeyring } from "../tokens/keyring.js";
import { type SqlAppCatalog, sqlAppCatalog } from "./sql-app-catalog.js";
import { sqlChatStore } from "./sql-chat-store.js";
import { sqlDeckStore } from "./sql-deck-store.js";
import { sqlEventLog } from "./sql-event-log.js";
import { sqlToolJobStore } from "./sql-tool-job-store.js";
import { sqlWindowStore } from "./sql-window-store.js";
import { keyringWindowTokens } from "./window-token-service.js";
import { bundleWindowUrl } from "./window-url.js";

/** Open app event streams per user (a few tabs, a phone, a script) and on this node in total. */
export const RUNTIME_STREAMS_PER_USER_MAX = 16;
export const RUNTIME_STREAMS_MAX = 4096;

export interface NexusRuntimeOptions {
  db: Kysely<Database>;
  keyring: SigningKeyring;
  clock: Clock;
  logger: Logger;
  /** APS KV storage; `storage.*` from a window uses its `app` scope. */
  storage: StorageService;
  /**
   * `llm.complete`, `llm.stream` and `llm.embed` from a window, and `agent.session.*` and
   * `image.*` when `agent` and `image` are there: the LLM gateway's services
   * (`CopilotServices.runtimeServices()`); without them those methods answer `not_implemented`.
   */
  llm?: {
    sampling: SamplingService;
    embeddings: EmbeddingsService;
    agent?: AgentService;
    image?: ImageService;
  };
  /** `web.*` from a window, behind the user's web_grant for the app (executas/server-web.ts). */
  web?: WebService;
  /** `credentials.*` from a window: the user's connected accounts, behind the app's credentials_grant. */
  credentials?: CredentialsService;
  /**
   * `tools.*` from a window: the user's installed executas (window-tool-host.ts); without it
   * every `tools.invoke` answers `executa_unavailable`.
   */
  tools?: ToolHost;
  /**
   * Where window events are delivered through: `anna-nexus start --event-bus` passes the NATS
   * bus so a window on one node reaches an event stream on another; without it, the in-process
   * bus (one node). Either way each event is first numbered in the database's event log
   * (sql-event-log.ts), so a stream resumes on any node.
   */
  events?: EventBus;
}

export interface NexusRuntime {
  dispatcher: MultiTenantDispatcher;
  catalog: SqlAppCatalog;
  /** Where a window's frame loads its bundle (window-url.ts). */
  windowUrl: WindowUrl;
  /** The open event streams of this process. */
  streams: SseStreams;
  /** The window events, numbered in the database's log before they go out. */
  events: SequencedEventBus;
  /**
   * Shutdown: ends the event streams (they would hold the server open) and cancels the jobs;
   * resolves once the events published before are in the log (the database closes after).
   */
  close(): Promise<void>;
}

/** app-core logs through jsonrpc's four-method Logger; Nexus's logger takes the level. */
export function runtimeLogger(logger: Logger): RuntimeLogger {
  return {
    debug: (msg, fields) => logger.log("debug", msg, fields),
    info: (msg, fields) => logger.log("info", msg, fields),
    warn: (msg, fields) => logger.log("warn", msg, fields),
    error: (msg, fields) => logger.log("error", msg, fields),
  };
}

export function createNexusRuntime(options: NexusRuntimeOptions): NexusRuntime {
  const { db, clock } = options;
  const catalog = sqlAppCatalog(db);
  const dispatcherLogger = runtimeLogger(options.logger);
  // `apps.launch` of another installed app opens its window through this same dispatcher (the
  // path of REST `POST /runtime/windows`); it runs only once the dispatcher exists.
  const installedApps: AppsCatalog = {
    list: catalog.installedApps.list,
    async launch(app, request) {
      const opened = await dispatcher.openWindow(request.view, {
        appId: app.app_id,
        userId: request.userId,
        conversationSessionUuid: request.conversationSessionUuid,
        source: request.source,
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      });
      return { ...opened.window, reused: opened.reused };
    },
  };
  const events = sequencedEventBus(
    options.events ?? createEventBus({ logger: dispatcherLogger }),
    sqlEventLog(db, { clock, logger: options.logger }),
    { logger: dispatcherLogger },
  );
  const dispatcher: MultiTenantDispatcher = createMultiTenantDispatcher({
    apps: catalog.apps,
    grants: catalog.grants,
    installedApps,
    tokens: keyringWindowTokens(options.keyring),
    windowStore: sqlWindowStore(db),
    toolJobStore: sqlToolJobStore(db),
    chatStore: sqlChatStore(db),
    deckStore: sqlDeckStore(db, clock),
    services: {
      storage: options.storage,
      ...options.llm,
      ...(options.web === undefined ? {} : { web: options.web }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    },
    ...(options.tools === undefined ? {} : { host: options.tools }),
    events,
    storage: "aps",
    clock: () => clock.now(),
    logger: dispatcherLogger,
  });
  const streams = new SseStreams(dispatcherLogger, {
    perRouteMax: RUNTIME_STREAMS_PER_USER_MAX,
    totalMax: RUNTIME_STREAMS_MAX,
  });
  return {
    dispatcher,
    catalog,
    windowUrl: bundleWindowUrl(db),
    streams,
    events,
    async close() {
      streams.endAll();
      dispatcher.close();
      await events.settled();
    },
  };
}
