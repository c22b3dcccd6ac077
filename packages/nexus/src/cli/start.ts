// `anna-nexus start`: open and migrate the database, build the app, listen; on SIGTERM/SIGINT stop
// accepting, let in-flight requests finish, then close the pool.
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import {
  type ConfigFile,
  ConfigFileError,
  dispatcherAppViews,
  readConfigFile,
  SearchConfigError,
  searchProviderFromEnv,
} from "@anna-ai/agent";
import { sqlRateLimiter } from "../auth/sql-rate-limit.js";
import { memoryRateLimiter } from "../auth/rate-limit.js";
import { consoleMailSender, fileOutboxMailSender } from "../mail/mail-sender.js";
import { systemClock } from "../core/clock.js";
import { DEFAULT_CONFIG, resolveConfig } from "../core/config.js";
import { bufferedJsonLogger, type Logger } from "../core/logger.js";
import { createApp } from "../http/app.js";
import { findDashboardDist } from "../http/dashboard-dist.js";
import { BlobStoreConfigError } from "../blobs/blob-store.js";
import { openBlobStore } from "../blobs/open-blob-store.js";
import { createSqlFilesService } from "../storage/sql-files-store.js";
import { createSqlStorageService } from "../storage/sql-kv-store.js";
import { createNexusRuntime } from "../runtime/nexus-runtime.js";
import { eventBusFamilies } from "../bus/event-bus-metrics.js";
import {
  createNatsEventBus,
  EventBusConnectError,
  type EventBusHandle,
} from "../bus/nats-event-bus.js";
import { executaToolHost } from "../runtime/window-tool-host.js";
import { executaBinaries } from "../hub/binaries/binary-uploads.js";
import { oidcVerifier } from "../hub/binaries/oidc.js";
import { executaHub } from "../hub/executa-hub.js";
import { appExecutaReferences, appRegistry } from "../apps/app-registry.js";
import { PRE_REVIEW_CHECKS } from "../apps/checks/index.js";
import { sqlExecutaStore } from "../hub/executa-store.js";
import { appStore } from "../store/app-store.js";
import { sqlStores } from "../stores/sql-stores.js";
import type { Stores } from "../stores/types.js";
import { createChat } from "../chat/chat-deps.js";
import { ChatAttachments } from "../chat/chat-attachments.js";
import { chatPlatformTools } from "../chat/chat-platform-tools.js";
import { turnAssembler } from "../chat/turn-assembly.js";
import { openCopilot } from "../copilot/copilot-services.js";
import { openExecutaRuntime } from "../executas/open-executa-runtime.js";
import { executaPlacement, type ExecutaPlacement } from "../executas/executa-placement.js";
import { serverWebService } from "../executas/server-web.js";
import { sqlCredentialVault } from "../credentials/credential-vault.js";
import { brokeredInvokeCredentials } from "../credentials/invoke-credentials.js";
import { openPlatformCredentials } from "../credentials/open-platform-credentials.js";
import {
  OAuthConfigError,
  OAuthRegistry,
  oauthProvidersFromEnv,
} from "../credentials/oauth-providers.js";
import type { ExecutaRuntime } from "../executas/executa-runtime.js";
import { BINARY_FLAGS, binaryConfig } from "./binary-flags.js";
import { developerTermsFromEnv } from "./developer-terms-env.js";
import { nodeIdFrom } from "./node-id.js";
import { EVENT_BUS_FLAGS, eventBusFrom } from "./event-bus-flags.js";
import { llmFromEnv, llmSummary } from "./llm-env.js";
import { openKeyring } from "./keyring-flags.js";
import { type Flags, type FlagValues, flagHelp, parseFlags, parsePort } from "./args.js";
import { DATABASE_FLAGS, NO_MIGRATE_FLAG, openFromFlags } from "./database-flags.js";
import {
  LOG_FLAGS,
  logFormatFrom,
  METRICS_FLAGS,
  metricsListenFrom,
  startMetricsListener,
} from "./ops-flags.js";
import { RequestMetrics } from "../http/request-log.js";
import { eventBusCheck, migrationsCheck, sandboxCheck } from "../ops/readiness-checks.js";
import { type BoundedGauge, sseStreamsGauge } from "../ops/node-metrics.js";
import { EXIT, ExitError, usageError } from "./exit.js";
import type { CliIo } from "./io.js";

/** The version of this package, for anna_build_info. */
const NEXUS_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** After this, connections still open at shutdown are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;
const DEFAULT_PORT = 8080;
const DEFAULT_HOST = "127.0.0.1";

const FLAGS: Flags = {
  port: {
    type: "string",
    value: "<n>",
    description: `port to listen on (env PORT; default ${DEFAULT_PORT}; 0 picks a free one)`,
  },
  host: {
    type: "string",
    value: "<addr>",
    description: `address to bind (env HOST; default ${DEFAULT_HOST})`,
  },
  ...DATABASE_FLAGS,
  ...NO_MIGRATE_FLAG,
  "blob-store": {
    type: "string",
    value: "<url>",
    description:
      "where file bytes live: file:<dir> or s3://<bucket>?endpoint=http://host:port&region=… (env BLOB_STORE; default: <data>/blobs)",
  },
  "public-origin": {
    type: "string",
    value: "<url>",
    description:
      "the origin people reach this server at, e.g. https://nexus.example.com (env ANNA_PUBLIC_ORIGIN)",
  },
  "mail-outbox": {
    type: "string",
    value: "<dir>",
    description:
      "write each outgoing mail (verification links) as a JSON file here instead of printing it (env ANNA_MAIL_OUTBOX)",
  },
  "rate-limit-store": {
    type: "string",
    value: "<memory|database>",
    description:
      "where rate-limit counters live; database shares them between servers on one database (env ANNA_RATE_LIMIT_STORE; default: database on PostgreSQL, memory on SQLite)",
  },
  "trust-proxy": {
    type: "boolean",
    description: "trust X-Forwarded-For/-Proto from a reverse proxy (env ANNA_TRUST_PROXY=1)",
  },
  "release-review": {
    type: "boolean",
    description:
      "a new version of a live app waits for an admin's release review before it goes live (env ANNA_RELEASE_REVIEW=1)",
  },
  config: {
    type: "string",
    value: "<file>",
    description:
      'a JSON config file with the model settings under "llm" (env ANNA_CONFIG; the environment overrides it, see docs/agent.md)',
  },
  ...EVENT_BUS_FLAGS,
  ...BINARY_FLAGS,
  ...LOG_FLAGS,
  ...METRICS_FLAGS,
};

export const START_HELP = `Usage: anna-nexus start [options]

Starts the Nexus server. With no options it runs on SQLite in ./.anna-data and applies
migrations first; on PostgreSQL (or with --no-migrate) it only checks them and refuses pending
ones: run 'anna-nexus migrate' once per upgrade. It refuses a database a newer anna-nexus
migrated. It logs on stderr (JSON lines, or readable lines on a terminal), answers GET /healthz
and /readyz for load balancers, and stops cleanly on SIGTERM or Ctrl-C.
Token signing keys and the credentials users enter for their executas are sealed with
ANNA_TOKEN_KEK (base64, 32 bytes) or the key file token-signing.kek that the first start creates
in the data folder: back it up with the database.
Developer access is self-serve (the Developer Console's activation card, accepting the Developer
Terms); ANNA_SELF_SERVE_DEVELOPER=0 leaves it to admins, and your own terms are
ANNA_DEVELOPER_TERMS_FILE=<markdown> with ANNA_DEVELOPER_TERMS_VERSION=<new version>.

Installed executas (plugins) are installed under <data>/executas and run sandboxed with
bubblewrap, one private home per user and tool under <data>/sandbox. The start log says which:
  ANNA_SANDBOX=bwrap|none            the plugin sandbox (default bwrap; refused where it cannot run)
  ANNA_SANDBOX_ALLOW_UNSANDBOXED=1   with ANNA_SANDBOX=none: run Hub plugins unsandboxed anyway
  ANNA_SANDBOX_NETWORK=0             give each sandbox only its own loopback (default: network on)

Nodes sharing one database (a cluster) each have an id that stays the same across restarts:
  ANNA_NODE_ID=<id>                  default: the one in <data>/node-id, made at the first start;
                                     a restarted node fails the chat turns it left running

Connected accounts (plugins' OAuth credentials) come from the providers you configure, none by
default; register <origin>/api/v1/platform-credentials/oauth/<id>/callback at the provider:
  ANNA_OAUTH_PROVIDERS=google,twitter,<id>   the providers (google and twitter/x are presets)
  ANNA_OAUTH_<ID>_CLIENT_ID, _CLIENT_SECRET   required for each
  ANNA_OAUTH_<ID>_AUTHORIZE_URL, _TOKEN_URL, _USERINFO_URL, _REVOKE_URL, _SCOPES, _NAME,
  _CREDENTIAL_NAMES, _TOKEN_AUTH=basic|body   a preset's defaults, or required URLs for another id

Options:
${flagHelp(FLAGS)}

Examples:
  anna-nexus start
  anna-nexus start --port 9000 --data /var/lib/anna
  OPENAI_API_KEY=sk-… anna-nexus start --config /etc/anna/nexus.json
  DATABASE_URL=postgres://anna@db/anna anna-nexus start --host 0.0.0.0 --public-origin https://nexus.example.com --trust-proxy
  DATABASE_URL=postgres://anna@db/anna BLOB_STORE='s3://anna?endpoint=http://s3:9000' anna-nexus start --event-bus nats://nats.internal:4222`;

export interface StartOptions {
  /** Resolves when the server should stop (main wires SIGTERM/SIGINT). */
  stopSignal: Promise<string>;
  /**
   * Runs once the server listens, before it waits for the stop signal (`npm start` publishes
   * the example apps and prints its banner here). A stop signal meanwhile aborts `stopping`;
   * the server shuts down when the hook has returned. A throw stops the server: exit 1.
   */
  onListening?: (server: ListeningServer) => Promise<void>;
}

/** What a start hook may use of the running server. */
export interface ListeningServer {
  /** Where a client on this machine reaches it, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  stores: Stores;
  dataDir: string;
  database: { dialect: string; location: string };
  /** The model that answers chat turns (`offline` unless ANNA_LLM_* names one). */
  chatModel: { provider: string; model: string | undefined };
  /** Whether the dashboard's built files are served at `/`. */
  dashboard: boolean;
  logger: Logger;
  stopping: AbortSignal;
}

export async function runStart(
  argv: readonly string[],
  io: CliIo,
  opts: StartOptions,
): Promise<number> {
  const flags = parseFlags("start", FLAGS, argv);
  if (flags.help) {
    io.stdout(START_HELP + "\n");
    return EXIT.ok;
  }
  const port = parsePort(
    (flags.port as string | undefined) ?? io.env.PORT ?? String(DEFAULT_PORT),
    "start",
  );
  const hostname = (flags.host as string | undefined) ?? io.env.HOST ?? DEFAULT_HOST;
  const publicOrigin =
    (flags["public-origin"] as string | undefined) ?? (io.env.ANNA_PUBLIC_ORIGIN || undefined);
  if (publicOrigin !== undefined && !/^https?:\/\/[^/]+\/?$/.test(publicOrigin)) {
    throw usageError(
      `--public-origin must look like https://host[:port] (got '${publicOrigin}')`,
      "start",
    );
  }
  const trustProxy =
    flags["trust-proxy"] === true || /^(1|true|yes|on)$/i.test(io.env.ANNA_TRUST_PROXY ?? "");
  const logFormat = logFormatFrom(flags, io);
  const metricsListen = metricsListenFrom(flags, io.env);
  // Buffered: a line per request written one by one cost a pipe write each (bench:nexus kv).
  const logger = bufferedJsonLogger(io.stderr, Date, logFormat);
  try {
    return await serveUntilStopped(flags, io, opts, logger, {
      port,
      hostname,
      publicOrigin,
      trustProxy,
      metricsListen,
    });
  } finally {
    logger.flush();
  }
}

async function serveUntilStopped(
  flags: FlagValues,
  io: CliIo,
  opts: StartOptions,
  logger: ReturnType<typeof bufferedJsonLogger>,
  net: {
    port: number;
    hostname: string;
    publicOrigin: string | undefined;
    trustProxy: boolean;
    metricsListen: ReturnType<typeof metricsListenFrom>;
  },
): Promise<number> {
  const { port, hostname, publicOrigin, trustProxy, metricsListen } = net;
  const rateLimitStore =
    (flags["rate-limit-store"] as string | undefined) ??
    (io.env.ANNA_RATE_LIMIT_STORE || undefined);
  if (
    rateLimitStore !== undefined &&
    rateLimitStore !== "memory" &&
    rateLimitStore !== "database"
  ) {
    throw usageError(`--rate-limit-store is memory or database (got '${rateLimitStore}')`, "start");
  }
  const binaries = binaryConfig(flags, io.env);
  // Checked before the database opens: a bad ANNA_LLM_* or config file is a usage error, not a
  // half-started server.
  const configFile = await configFileFrom(flags, io);
  const llm = llmFromEnv(io.env, configFile);
  const terms = developerTermsFromEnv(io.env, io.cwd);
  const search = webSearchFromEnv(io.env);
  const oauth = oauthFromEnv(io.env);
  const eventBusConfig = eventBusFrom(flags, io.env);
  const outbox =
    (flags["mail-outbox"] as string | undefined) ?? (io.env.ANNA_MAIL_OUTBOX || undefined);
  const mail = outbox
    ? fileOutboxMailSender(resolve(io.cwd, outbox))
    : consoleMailSender(io.stderr);

  const { handle, applied, schema, dataDir } = await openFromFlags(flags, io);
  logger.log("info", "database ready", {
    dialect: handle.dialect,
    location: handle.location,
    migrations_applied: applied,
    schema: schema.applied[schema.applied.length - 1] ?? null,
  });
  const stores = sqlStores(handle.db);
  let tokens: Awaited<ReturnType<typeof openKeyring>>;
  let nodeId: string;
  try {
    tokens = await openKeyring(stores, io, dataDir);
    // Recorded on the chat turns this node runs: a restarted node ends its own at once, the
    // others' only when their heartbeat stops (D-nexus-167).
    nodeId = nodeIdFrom(io.env, dataDir);
  } catch (err) {
    await handle.close();
    throw err;
  }
  logger.log("info", "token signing ready", { kid: tokens.kid, kek_source: tokens.kekSource });
  // Filesystem blob URLs point at this server; its address is known once it listens.
  let origin = publicOrigin?.replace(/\/$/, "") ?? "";
  const blobUrl = (flags["blob-store"] as string | undefined) ?? (io.env.BLOB_STORE || undefined);
  let blobs;
  try {
    blobs = await openBlobStore({
      url: blobUrl,
      dataDir,
      origin: () => origin,
      clock: systemClock.now,
    });
    await blobs.ping();
  } catch (err) {
    await handle.close();
    const what =
      err instanceof BlobStoreConfigError
        ? err.message
        : `blob store unavailable: ${(err as Error).message}`;
    throw new ExitError(EXIT.database, what, { cause: err });
  }
  logger.log("info", "blob store ready", { blob_store: blobs.description });
  const clock = systemClock.now;
  const kv = createSqlStorageService({ db: handle.db, clock });
  const files = createSqlFilesService({ db: handle.db, blobs, clock, logger });
  // Several servers on one PostgreSQL must count together, or each multiplies the limits.
  const sharedLimits =
    (rateLimitStore ?? (handle.dialect === "postgres" ? "database" : "memory")) === "database";
  logger.log("info", "rate limits ready", {
    store: sharedLimits ? "database" : "memory",
    mail: mail.description,
  });
  const rateLimiter = sharedLimits
    ? sqlRateLimiter(handle.db, systemClock)
    : memoryRateLimiter(systemClock);
  const config = resolveConfig({
    ...terms,
    publicOrigin: publicOrigin?.replace(/\/$/, ""),
    trustProxy,
    binaries,
    appLimits: {
      ...DEFAULT_CONFIG.appLimits,
      releaseReview:
        flags["release-review"] === true ||
        /^(1|true|yes|on)$/i.test(io.env.ANNA_RELEASE_REVIEW ?? ""),
    },
    llmQuota: llm.quota,
  });
  let copilot;
  try {
    copilot = await openCopilot({
      db: handle.db,
      llm: llm.llm,
      quota: config.llmQuota,
      clock,
      blobs,
      agentSessionMaxLifetimeMs: config.devSessionMaxMs,
      // The admin page's settings sit between the file and the environment.
      models: {
        kek: tokens.kek,
        env: llm.envInput,
        ...(configFile ? { file: configFile } : {}),
      },
      imageOrigins: () => [origin, ...(publicOrigin ? [publicOrigin.replace(/\/$/, "")] : [])],
    });
  } catch (err) {
    await handle.close();
    await blobs.close();
    throw new ExitError(EXIT.usage, `LLM gateway: ${(err as Error).message}`, { cause: err });
  }
  // `web/*` and `web.*`: real fetches (SSRF-guarded), search on the chat's provider.
  const web = serverWebService({ search, files });
  // Users' executa credentials, sealed with the signing keys' KEK: one key file to back up.
  const credentials = sqlCredentialVault({ db: handle.db, kek: tokens.kek, clock: systemClock });
  // Connected accounts at the operator's OAuth providers, sealed with the same KEK.
  const platformCredentials = openPlatformCredentials({
    db: handle.db,
    kek: tokens.kek,
    clock: systemClock,
    logger,
    registry: oauth,
  });
  const { accounts, service: credentialsService } = platformCredentials;
  logger.log("info", "oauth providers", { providers: oauth.providers.map((p) => p.id) });
  let executas: ExecutaRuntime;
  try {
    executas = openExecutaRuntime({
      db: handle.db,
      blobs,
      dataDir,
      env: io.env,
      // Its own download URLs carry the origin they were uploaded through: the public one, or
      // this server's listening address when none is set.
      selfOrigins: () => [origin, ...(publicOrigin ? [publicOrigin.replace(/\/$/, "")] : [])],
      copilot,
      storage: { kv, files },
      web,
      tokens: tokens.keyring,
      credentials: brokeredInvokeCredentials({
        db: handle.db,
        vault: credentials,
        accounts,
        logger,
      }),
      platformCredentials: credentialsService,
      credentialAliases: oauth.credentialAliases(),
      logger,
      clock,
    });
  } catch (err) {
    await handle.close();
    await blobs.close();
    throw new ExitError(EXIT.usage, `executa runtime: ${(err as Error).message}`, { cause: err });
  }
  // The operator must see at start when plugins run unsandboxed, or are refused.
  const sandbox = executas.pool.sandbox;
  const sandboxed = sandbox.options.mode === "bwrap" && sandbox.probe().usable;
  logger.log(sandboxed ? "info" : "warn", sandbox.startupNotice(), {
    executas_dir: resolve(dataDir, "executas"),
    sandbox_root: sandbox.root,
  });
  // Window events of every node over NATS, or in this process. A bus that cannot be reached at
  // start is a failed start (exit 3, like the database and the blob store): a node that came up
  // without it would serve event streams that miss the other nodes' events. Once connected it
  // reconnects by itself, forever.
  let eventBus: EventBusHandle | undefined;
  if (eventBusConfig !== undefined) {
    try {
      eventBus = await createNatsEventBus({ ...eventBusConfig, logger });
    } catch (err) {
      await executas.close();
      await handle.close();
      await blobs.close();
      if (err instanceof EventBusConnectError) {
        throw new ExitError(EXIT.database, err.message, { cause: err });
      }
      throw err;
    }
  }
  logger.log("info", "event bus ready", {
    event_bus: eventBus?.description ?? "in process",
    ...(eventBusConfig === undefined ? {} : { subject_prefix: eventBusConfig.subjectPrefix }),
  });
  // With a bus, one plugin process per (user, tool) in the cluster: the owner node runs it and
  // the others send it their invokes (D-nexus-168). Alone, every invoke runs here.
  let placement: ExecutaPlacement | undefined;
  if (eventBus !== undefined) {
    placement = executaPlacement({
      db: handle.db,
      nats: eventBus.connection,
      subjectPrefix: eventBus.subjectPrefix,
      node: nodeId,
      pool: executas.pool,
      prepare: (toolId, versionId, signal) => executas.prepare(toolId, versionId, signal),
      clock: systemClock,
      logger,
      connected: () => eventBus?.state() === "ok",
    });
    await placement.start();
    executas.pool.place(placement);
  }
  // App windows served by this server: their `storage.*` is the same APS storage, their `llm.*`
  // and `agent.*` the same gateway and agent sessions (plugins get `copilot.agent`).
  const runtime = createNexusRuntime({
    db: handle.db,
    keyring: tokens.keyring,
    clock: systemClock,
    logger,
    storage: kv,
    llm: copilot.runtimeServices(),
    web,
    credentials: credentialsService,
    tools: executaToolHost(handle.db, executas),
    ...(eventBus === undefined ? {} : { events: eventBus.bus }),
  });
  // Which model answers each purpose, so an operator sees what "offline by default" means; the key
  // is never part of it.
  logger.log("info", "llm gateway ready", {
    ...llmSummary(copilot.llmConfig()),
    config_file: configFile?.path ?? null,
    quota_tokens_per_user: config.llmQuota.tokensPerUser ?? null,
    quota_window_hours: Math.round(config.llmQuota.windowMs / 3_600_000),
  });
  // Chat turns use the same gateway, so their tokens count against the same quota.
  const gateway = copilot.gateway;
  // Chat attachments live in the same blob store and count against the same storage quota.
  const attachments = new ChatAttachments(handle.db, blobs, () => systemClock.now());
  const platformTools = chatPlatformTools({
    dataDir,
    search,
    sandbox: executas.pool.sandbox,
    attachment: attachments.lookup,
  });
  const chat = createChat({
    db: handle.db,
    attachments,
    gateway,
    clock: systemClock,
    logger,
    node: nodeId,
    assemble: turnAssembler({
      db: handle.db,
      executas,
      platformTools,
      appViews: dispatcherAppViews(runtime.dispatcher),
      logger,
    }),
  });
  const interrupted = await chat.service.recoverInterrupted();
  chat.service.startHeartbeat();
  // The chat model is in "llm gateway ready" above.
  logger.log("info", "chat ready", {
    node: nodeId,
    interrupted_turns_failed: interrupted,
    platform_tools: platformTools.map((t) => t.name),
    web_search: search ? "on" : "off",
  });
  const hub = executaHub({
    store: sqlExecutaStore(handle.db),
    clock: systemClock,
    references: appExecutaReferences(handle.db),
  });
  const dashboardDist = findDashboardDist();
  logger.log("info", "dashboard", { dist: dashboardDist ?? "not installed" });
  const requestMetrics = metricsListen ? new RequestMetrics() : undefined;
  const app = createApp({
    metrics: requestMetrics,
    readiness: [
      migrationsCheck(handle.db),
      sandboxCheck(executas.pool.sandbox),
      ...(eventBus === undefined ? [] : [eventBusCheck(eventBus)]),
    ],
    stores,
    mail,
    rateLimiter,
    keyring: tokens.keyring,
    clock: systemClock,
    logger,
    config,
    pingDatabase: handle.ping,
    hub,
    binaries: executaBinaries({
      db: handle.db,
      blobs,
      clock: systemClock,
      logger,
      config: config.binaries,
      oidc: oidcVerifier({
        issuers: config.binaries.oidcIssuers,
        audience: config.binaries.oidcAudience,
        clock: systemClock,
      }),
    }),
    apps: appRegistry({
      db: handle.db,
      clock: systemClock,
      limits: config.appLimits,
      rateLimiter,
      blobs,
      hub,
      checks: PRE_REVIEW_CHECKS,
    }),
    store: appStore({ db: handle.db, clock: systemClock }),
    storage: {
      kv,
      files,
      blobs,
    },
    runtime,
    dashboard: { distDir: dashboardDist },
    chat,
    copilot,
    executas,
    credentials,
    platformCredentials,
  });

  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port, hostname }, () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    await placement?.close();
    await executas.close();
    await eventBus?.close();
    await handle.close();
    await blobs.close();
    throw new ExitError(
      EXIT.listen,
      `cannot listen on ${hostname}:${port}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  let metricsServer: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  if (metricsListen && requestMetrics) {
    const gauges: BoundedGauge[] = [
      sseStreamsGauge("app_events", runtime.streams),
      sseStreamsGauge("chat", chat.streams),
      {
        name: "plugin_processes",
        help: "Plugin processes this node holds (warm or starting), one per (user, tool).",
        read: () => ({ value: executas.pool.size, max: executas.pool.capacity }),
      },
      {
        name: "chat_turns_running",
        help: "Chat turns running on this node.",
        read: () => {
          const { running, max } = chat.service.load;
          return { value: running, max };
        },
      },
    ];
    try {
      metricsServer = await startMetricsListener(metricsListen, {
        requests: requestMetrics,
        gauges,
        build: { version: NEXUS_VERSION, dialect: handle.dialect },
        startedAtMs: Date.now() - Math.round(process.uptime() * 1000),
        ...(eventBus === undefined ? {} : { families: () => eventBusFamilies(eventBus) }),
      });
    } catch (err) {
      server.close();
      await placement?.close();
      await executas.close();
      await eventBus?.close();
      await handle.close();
      await blobs.close();
      throw new ExitError(EXIT.listen, (err as Error).message, { cause: err });
    }
    logger.log("info", "metrics listening", { url: `${metricsServer.url}/metrics` });
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  // An unspecified bind address is not one a client can reach; loopback is.
  const reachable = ["0.0.0.0", "[::]"].includes(host) ? "127.0.0.1" : host;
  if (origin === "") origin = `http://${reachable}:${addr.port}`;
  logger.log("info", "listening", { url: `http://${host}:${addr.port}`, port: addr.port });
  // Whoever waits for the server to be up reads this line: it goes out now.
  logger.flush();

  const stopping = new AbortController();
  let stopReason: string | undefined;
  void opts.stopSignal.then((sig) => {
    stopReason = sig;
    stopping.abort(new Error(`stopping on ${sig}`));
  });
  let hookError: unknown;
  if (opts.onListening) {
    try {
      await opts.onListening({
        origin,
        stores,
        dataDir,
        database: { dialect: handle.dialect, location: handle.location },
        chatModel: {
          provider: gateway.modelFor("chat").provider,
          model: gateway.modelFor("chat").model,
        },
        dashboard: dashboardDist !== undefined,
        logger,
        stopping: stopping.signal,
      });
    } catch (err) {
      hookError = err;
      logger.log("error", "start hook failed; stopping", { error: (err as Error).message });
    }
    logger.flush();
  }
  const signal =
    hookError === undefined ? await opts.stopSignal : (stopReason ?? "start hook failed");
  logger.log("info", "shutting down", { signal });
  await runtime.close();
  // Running turns end `failed` (the server stopped) and their streams close, so close() below
  // does not wait on them.
  await chat.close();
  logger.flush();
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      logger.log("warn", "grace period over; closing open connections", {
        grace_ms: SHUTDOWN_GRACE_MS,
      });
      if ("closeAllConnections" in server) server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  });
  await metricsServer?.close();
  // Plugins stop before the database: a last reverse call still finds its storage, and before
  // the bus, which drains the events they published last.
  await placement?.close();
  await executas.close();
  await eventBus?.close();
  await handle.close();
  await blobs.close();
  logger.log("info", "stopped", {});
  if (hookError !== undefined) {
    throw new ExitError(EXIT.runtime, (hookError as Error).message, { cause: hookError });
  }
  return EXIT.ok;
}

/** `--config <file>` or ANNA_CONFIG, relative to the working directory; a bad file is a usage error. */
async function configFileFrom(flags: FlagValues, io: CliIo): Promise<ConfigFile | undefined> {
  const path = (flags.config as string | undefined) ?? (io.env.ANNA_CONFIG || undefined);
  if (path === undefined) return undefined;
  try {
    return await readConfigFile(resolve(io.cwd, path), io.env);
  } catch (err) {
    if (err instanceof ConfigFileError) throw usageError(err.message, "start");
    throw err;
  }
}

/** ANNA_OAUTH_* read before anything opens: a bad value is a usage error. */
function oauthFromEnv(env: NodeJS.ProcessEnv): OAuthRegistry {
  try {
    return new OAuthRegistry(oauthProvidersFromEnv(env));
  } catch (err) {
    if (err instanceof OAuthConfigError) throw usageError(err.message, "start");
    throw err;
  }
}

/** ANNA_WEB_SEARCH_* read before anything opens: a bad value is a usage error. */
function webSearchFromEnv(env: NodeJS.ProcessEnv) {
  try {
    return searchProviderFromEnv(env);
  } catch (err) {
    if (err instanceof SearchConfigError) throw usageError(err.message, "start");
    throw err;
  }
}
