// The `anna-app dev` harness: one Hono app on 127.0.0.1 serving the production wire (app-core's
// runtime sub-app: rpc, windows, SSE), the bundle, the SDK and the dashboard, over app-core's
// dispatcher and an ExecutaHost whose plugins spawn on their first `tools.invoke`
// (Reference L11563–11585, A5, A8).
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import {
  createDispatcher,
  type Clock,
  WindowTokenIssuer,
  type Dispatcher,
} from "@anna-ai/app-core";
import { createRuntimeApp, SseStreams } from "@anna-ai/app-core/http";
import { DEFAULT_DEV_USER_ID } from "@anna-ai/app-schema";
import { ExecutaHost, WEB_GRANT_ALL } from "@anna-ai/executa-host";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import { createAnswerCall } from "./answer-call.js";
import { relativeTo } from "./banner.js";
import type { BundleServerOptions } from "./bundle-files.js";
import { dashboardBootState } from "./dashboard-page.js";
import type { PageEvent } from "./dashboard/simulate-event.js";
import { devCredentials } from "./dev-credentials.js";
import { devInstalledApps } from "./dev-installed-apps.js";
import { createDevMocks } from "./dev-mocks.js";
import { devFixtures, type DevFixtures } from "./dev-fixtures.js";
import { DevPanel } from "./dev-panel.js";
import {
  executaStatesOf,
  followExecutas,
  restartExecuta,
  type ExecutaState,
} from "./executa-panel.js";
import { resolveDevExecutas, type DevExecutas } from "./executas.js";
import { executaInspectors, type ExecutaInspectors } from "./executa-inspectors.js";
import { allowedHosts } from "./guard/host-guard.js";
import { listen, mockLlmLaunchError, openBootWindow, readSdk, stopServer } from "./launch.js";
import { DevLaunchError, loadDevApp, type DevApp } from "./load-app.js";
import { createDevApp } from "./routes/dev-app.js";
import { buildDevServices, type DevLlmMode } from "./services.js";
import { openRealStorage, type RealStorage } from "../real-storage/open-real-storage.js";
import { openRealCopilot } from "../real-copilot/open-real-copilot.js";
import { createSessionRecorder, type RecordingStatus } from "./session-recorder.js";
import { watchBundle, watchExecutas, type Watcher } from "./watch.js";
import { createWindowLinks } from "./window-links.js";
import { CLI_VERSION } from "../version.js";

export const DEV_DEFAULT_PORT = 5180;
/** What `anna-app dev --storage aps` asks its token to allow (the published CLI's value). */
const STORAGE_MAX_CALLS_PER_TOKEN = 200;
export const DEV_HOST = "127.0.0.1";
export { SDK_ROUTE } from "./routes/page-routes.js";

export interface DevServerOptions {
  manifestPath: string;
  bundleDir?: string;
  slug?: string;
  /** The view opened at boot; default the manifest's default view. */
  view?: string;
  /** 0 picks a free port (tests). Default 5180. */
  port?: number;
  userId?: string;
  /** Live reload and plugin restart; default on. */
  watch?: boolean;
  /**
   * `aps`: the app's `storage.*` and `files.*` (and its executas' `storage/*`, `files/*`) go to
   * the saved account's Nexus with one storage token at a time (real-world-cli.md §9.7).
   */
  storage?: "legacy" | "aps";
  /** `--account <host>`: the saved account `--storage aps` uses; default the current one. */
  account?: string;
  /** Where the saved account comes from (ANNA_APP_HOST/ANNA_APP_PAT, XDG_CONFIG_HOME, HOME). */
  env?: NodeJS.ProcessEnv;
  /** `--executa` specs; non-empty replaces discovery. */
  executa?: readonly string[];
  llm?: DevLlmMode;
  mockLlm?: string;
  /** `--llm-account <host>`: the saved account `--llm real` uses; default `--account`, then the current one. */
  llmAccount?: string;
  /** `--llm-app-slug`: the dev app `--llm real` sessions are for; default the app's slug. */
  llmAppSlug?: string;
  /**
   * A JSONL path, `false` for none; default `dev-session-<time>.jsonl` in the folder the first
   * `manifest.dev.fixtures` glob starts in, else `fixtures/` (A10, L7915).
   */
  record?: string | false;
  /** The recording's size cap; default MAX_SESSION_RECORDING_BYTES. */
  recordMaxBytes?: number;
  /** The SDK module to serve; default @anna-ai/app-runtime's bundle. */
  sdkPath?: string;
  logger?: Logger;
  /** The dispatcher's clock (token expiry), injectable for tests. */
  clock?: Clock;
  /** Tests only: `web.fetch` may reach 127.0.0.1 (the SSRF guard blocks loopback otherwise). */
  allowLoopbackFetch?: boolean;
  /**
   * The developer's working directory: the labels (`llmLabel`, `webLabel`) show the `--mock-llm`
   * file relative to it, like the banner's other paths. Default: the path as given.
   */
  cwd?: string;
}

export interface DevWindowLink {
  window_uuid: string;
  view: string;
  url: string;
}

export interface DevServer {
  readonly url: string;
  readonly port: number;
  readonly app: DevApp;
  readonly views: string[];
  readonly dispatcher: Dispatcher;
  readonly host: ExecutaHost;
  readonly executas: DevExecutas;
  readonly panel: DevPanel;
  /** The Inspect button's inspectors, one per executa asked for. */
  readonly inspectors: ExecutaInspectors;
  /** The window opened at boot. */
  readonly window: DevWindowLink;
  readonly storage: "legacy" | "aps";
  /** As the banner prints it. */
  readonly storageLabel: string;
  readonly llmLabel: string;
  /** `web.*` and `credentials.*` as the banner prints them. */
  readonly webLabel: string;
  readonly credentialsLabel: string;
  readonly recordPath: string | undefined;
  /** Where the recording stands (null with `--no-record`): stopped, and why, after a failure. */
  recordingStatus(): RecordingStatus | null;
  /** `manifest.dev.fixtures`: the recordings listed and replayable on `/dev/api/fixtures`. */
  readonly fixtures: DevFixtures;
  /** Executa states for the banner and the panel. */
  executaStates(): ExecutaState[];
  /** What the dashboard reports with `?report` (frame titles), for browser tests. */
  onReport(listener: (report: unknown) => void): () => void;
  close(): Promise<void>;
}

export { PANEL_PUSH_INTERVAL_MS, STDERR_TAIL_LINES } from "./executa-panel.js";
export type { ExecutaState } from "./executa-panel.js";

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const logger = options.logger ?? NULL_LOGGER;
  const app = await loadDevApp({
    manifestPath: options.manifestPath,
    ...(options.bundleDir === undefined ? {} : { bundleDir: options.bundleDir }),
    ...(options.slug === undefined ? {} : { slug: options.slug }),
  });
  const views = (app.manifest.ui?.views ?? []).map((v) => v.name);
  if (views.length === 0) throw new DevLaunchError(`${app.manifestPath} declares no ui.views`);
  if (options.view !== undefined && !views.includes(options.view)) {
    throw new DevLaunchError(
      `--view ${options.view}: the manifest's views are ${views.join(", ")}`,
    );
  }
  const dev = app.manifest.dev ?? undefined;
  const userId = options.userId ?? String(dev?.user_id ?? DEFAULT_DEV_USER_ID);
  const installedApps = devInstalledApps(dev);
  const executas = await resolveDevExecutas(app, options.executa ?? []);
  // Before the services: a missing SDK must not leave them running.
  const sdk = readSdk(options.sdkPath);
  const storage = options.storage ?? "legacy";
  const real = storage === "aps" ? await openApsStorage(options, app.slug) : undefined;
  const storageLabel = real?.label ?? "legacy (in-memory runtime_state)";
  const realLlm = options.llm === "real" ? await openRealLlm(options, app.slug) : undefined;
  const devServices = await buildDevServices({
    ...(realLlm === undefined ? {} : { realLlm }),
    ...(real === undefined ? {} : { storage: { storage: real.storage, files: real.files } }),
    llm: options.llm ?? "mock",
    ...(options.mockLlm === undefined ? {} : { mockLlmFixture: options.mockLlm }),
    credentials: devCredentials(dev),
    ...(options.allowLoopbackFetch === true ? { allowLoopbackFetch: true } : {}),
    ...(options.cwd === undefined ? {} : { showPath: relativeTo(options.cwd) }),
  }).catch(mockLlmLaunchError);

  const fixtures = devFixtures(app.projectDir, dev?.fixtures ?? []);
  const recordPath =
    options.record === false
      ? undefined
      : path.resolve(
          app.projectDir,
          options.record ??
            path.join(
              fixtures.recordDir,
              `dev-session-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`,
            ),
        );
  const streams = new SseStreams(logger);
  const panel = new DevPanel();
  const recorder =
    recordPath === undefined
      ? undefined
      : createSessionRecorder(
          recordPath,
          {
            app_id: app.slug,
            user_id: userId,
            // Relative to the project: recordings are committed, a machine's path has no place there.
            manifest: path.relative(app.projectDir, app.manifestPath) || app.manifestPath,
            source: "anna-app dev",
            // The upstream harness's meta key: its reader expects it.
            harness_version: CLI_VERSION,
          },
          {
            ...(options.recordMaxBytes === undefined ? {} : { maxBytes: options.recordMaxBytes }),
            // Calls go on; the developer learns it from the log and the panel.
            onStop: (reason) => {
              logger.warn("recording stopped", { file: recordPath, reason });
              panel.push("recording_stopped", { file: recordPath, reason });
            },
          },
        );

  // Shared with the mocks' token check, so a mocked call is authenticated like a real one.
  const tokenSecret = randomBytes(32);
  const mocks = createDevMocks(
    app.manifest,
    new WindowTokenIssuer({
      secret: tokenSecret,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    }),
    executas.handles,
  );
  const host = new ExecutaHost({ router: devServices.router, logger });
  const executaFollow = followExecutas(host, panel);
  for (const spec of executas.specs) host.register(spec, { userId });
  const dispatcher = createDispatcher({
    manifest: app.manifest,
    appId: app.slug,
    versionId: "dev",
    userId,
    services: devServices.services,
    // Dev installs grant web and connected accounts (R151, R152).
    webGrant: WEB_GRANT_ALL,
    credentialsGrant: { enabled: true },
    appName: app.name,
    ...(installedApps === undefined ? {} : { apps: installedApps }),
    host,
    storage,
    llm: options.llm === "off" ? "off" : "on",
    toolIds: executas.toolIds,
    tokenSecret,
    logger,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(recorder === undefined ? {} : { recorder }),
  });
  const reportListeners = new Set<(report: unknown) => void>();

  const executaStates = (): ExecutaState[] => executaStatesOf(host);

  let origin = "";
  /** The same page opened as `localhost`, which the origin guard also accepts. */
  let localhostOrigin = "";
  /** The Host names answered (DNS rebinding guard); known once the port is. */
  let hosts: ReadonlySet<string> = new Set();
  const bundleOptions = (): BundleServerOptions => ({
    bundleDir: app.bundleDir,
    manifest: app.manifest,
    origin,
    toolIdHandles: executas.handles,
  });
  const links = createWindowLinks({ dispatcher, userId, slug: app.slug, origin: () => origin });
  const answerCall = createAnswerCall({ mocks, dispatcher, panel, recorder });

  async function devState(): Promise<Record<string, unknown>> {
    const windows = [];
    for (const win of await dispatcher.listWindows(userId)) {
      const link = await links.windowLink(String(win.window_uuid));
      if (link !== undefined) windows.push({ ...link.window, url: link.url });
    }
    return {
      app: { name: app.name, slug: app.slug, views },
      windows,
      executas: executaStates(),
      calls: panel.calls,
      // With `calls`: the page opens its panel stream after these (/dev/stream?after=…).
      calls_seq: panel.recordedCount,
      storage,
      llm: devServices.llmLabel,
      dashboard: dashboardBootState(app.manifest),
      // What production would refuse but the harness runs without, as the banner lists it.
      warnings: [...app.warnings, ...executas.warnings],
      recording: recorder?.status() ?? null,
    };
  }

  const runtime = createRuntimeApp({
    dispatcher,
    // The harness acts for its one developer, in its one app.
    caller: () => ({ userId, appId: app.slug }),
    answerCall: (call) =>
      answerCall(
        call.token,
        call.windowUuid,
        call.id,
        call.ns,
        call.method,
        call.args,
        call.signal,
      ),
    windowUrl: links.windowUrl,
    streams,
    logger,
  });
  const inspectors = executaInspectors({
    specs: () => executas.specs,
    env: options.env ?? process.env,
    cwd: options.cwd ?? app.projectDir,
    logger,
  });
  const devApp = createDevApp({
    logger,
    hosts: () => hosts,
    origins: () => ({ origin, localhostOrigin }),
    pages: { slug: app.slug, sdk, devState, bundleOptions },
    runtime,
    dev: {
      devState,
      panel,
      streams,
      pageEvents: {
        dispatcher,
        userId,
        record: (event: PageEvent) => recorder?.event(event),
      },
      fixtures: {
        projectDir: app.projectDir,
        fixtures,
        recordPath,
        bootWindow: () => bootWid,
        mintToken: async (wid: string) => (await links.windowLink(wid))?.token,
        call: answerCall,
        onReplay: (report: unknown) => panel.push("fixture_replay", report),
      },
      reportListeners,
      inspectors,
    },
  });
  const server = createAdaptorServer({ fetch: devApp.fetch }) as Server;
  const port = await listen(server, options.port ?? DEV_DEFAULT_PORT, DEV_HOST).catch(
    async (error: unknown) => {
      dispatcher.close();
      await host.close();
      await devServices.close();
      throw error;
    },
  );
  origin = `http://${DEV_HOST}:${port}`;
  localhostOrigin = `http://localhost:${port}`;
  hosts = allowedHosts(port);

  const bootView =
    options.view ?? views.find((_, i) => app.manifest.ui?.views[i]?.default) ?? views[0];
  let opened: Awaited<ReturnType<Dispatcher["openWindow"]>>;
  try {
    opened = await openBootWindow(dispatcher, bootView, userId, dev?.seed_storage);
  } catch (error) {
    // Half-started: stop listening and stop the services, so the process can exit with the error.
    await stopServer(server);
    dispatcher.close();
    await host.close();
    await devServices.close();
    throw error;
  }
  const bootWid = String(opened.window.window_uuid);
  recorder?.start();
  logger.info("harness listening", { url: `${origin}/`, recording: recordPath ?? null });

  const watchers: Watcher[] = [];
  if (options.watch !== false) {
    watchers.push(watchBundle(app.bundleDir, () => panel.push("reload", { at: Date.now() })));
    watchers.push(...watchExecutas(executas.specs, restartExecuta(host, userId, panel, logger)));
  }

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/`,
    port,
    app,
    views,
    dispatcher,
    host,
    executas,
    panel,
    inspectors,
    window: {
      window_uuid: bootWid,
      view: bootView ?? "",
      url: links.windowUrl(bootWid, opened.token),
    },
    storage,
    storageLabel,
    llmLabel: devServices.llmLabel,
    webLabel: devServices.webLabel,
    credentialsLabel: devServices.credentialsLabel,
    recordPath,
    recordingStatus: () => recorder?.status() ?? null,
    fixtures,
    executaStates,
    onReport(listener) {
      reportListeners.add(listener);
      return () => reportListeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        for (const watcher of watchers) watcher.close();
        panel.close();
        streams.endAll();
        await stopServer(server);
        await inspectors.close();
        dispatcher.close();
        await host.close();
        // After the host: its plugins stopping re-arm the panel's executa refresh.
        executaFollow.stop();
        await devServices.close();
      })();
      return closing;
    },
  };
}

/**
 * `--llm real`: the saved account and the dev app whose sessions answer llm.* and agent.*; a
 * missing login, a refused token or an unreachable server stops the start with one line. The
 * complete session is one per (user, app or executa): the Host API's service context names no
 * window.
 */
async function openRealLlm(options: DevServerOptions, slug: string) {
  try {
    const real = await openRealCopilot({
      env: options.env ?? process.env,
      command: "dev",
      account: options.llmAccount ?? options.account,
      appSlug: options.llmAppSlug ?? slug,
      keyOf: (ctx) => `${ctx.userId}:${ctx.toolId}`,
      warn: (line) => options.logger?.warn(line),
    });
    return {
      sampling: real.sampling,
      agent: real.agent,
      label: `real (${real.host}, app ${real.appSlug})`,
    };
  } catch (error) {
    throw new DevLaunchError(`--llm real: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * `--storage aps`: the saved account and the app's storage token, minted now so that a missing
 * login, a revoked token or an unreachable server stops the start with one line.
 */
async function openApsStorage(options: DevServerOptions, slug: string): Promise<RealStorage> {
  const real = await openRealStorage({
    env: options.env ?? process.env,
    command: "dev",
    account: options.account,
    appSlug: slug,
    maxCalls: STORAGE_MAX_CALLS_PER_TOKEN,
    warn: (line) => options.logger?.warn(line),
  });
  try {
    await real.warmUp();
  } catch (error) {
    throw new DevLaunchError(`--storage aps: ${(error as Error).message}`, { cause: error });
  }
  return real;
}
