// The `anna-app dev` harness: one node:http server on 127.0.0.1 serving the production wire
// (rpc, windows, SSE), the bundle, the SDK and the dashboard, over app-core's dispatcher and an
// ExecutaHost whose plugins spawn on their first `tools.invoke` (Reference L11563–11585, A5, A8).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  createDispatcher,
  type CallResult,
  type Clock,
  WindowTokenIssuer,
  type Dispatcher,
  isHostApiError,
} from "@anna-ai/app-core";
import { DEFAULT_DEV_USER_ID } from "@anna-ai/app-schema";
import { ExecutaHost, MockFixtureError, WEB_GRANT_ALL } from "@anna-ai/executa-host";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import { relativeTo } from "./banner.js";
import { serveBundleFile, type BundleServerOptions } from "./bundle-files.js";
import { dashboardAsset, dashboardBootState, dashboardHtml } from "./dashboard-page.js";
import {
  isPageKind,
  publishSimulatedEvent,
  recordPageEvent,
  type PageEvent,
} from "./dashboard/simulate-event.js";
import { parseWindowPatch, windowsRest } from "./dashboard/window-patch.js";
import { devCredentials } from "./dev-credentials.js";
import { devInstalledApps } from "./dev-installed-apps.js";
import { createDevMocks } from "./dev-mocks.js";
import { devFixtures, type DevFixtures } from "./dev-fixtures.js";
import { fixtureRoute } from "./fixture-routes.js";
import { DevPanel, outcomeOf } from "./dev-panel.js";
import { resolveDevExecutas, type DevExecutas } from "./executas.js";
import { HttpError, jsonFields, readJsonBody, sendError, sendJson } from "./http-util.js";
import { DevLaunchError, loadDevApp, type DevApp } from "./load-app.js";
import { buildDevServices, type DevLlmMode } from "./services.js";
import { createSessionRecorder } from "./session-recorder.js";
import { watchBundle, watchExecutas, type Watcher } from "./watch.js";

export const DEV_DEFAULT_PORT = 5180;
export const DEV_HOST = "127.0.0.1";
export const SDK_ROUTE = "/static/anna-apps/_sdk/latest/index.js";
const API = "/api/v1/anna-apps/runtime";
/** SSE comment lines keep idle proxies and EventSource from timing out. */
const SSE_KEEPALIVE_MS = 15_000;

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
  storage?: "legacy" | "aps";
  /** `--executa` specs; non-empty replaces discovery. */
  executa?: readonly string[];
  llm?: DevLlmMode;
  mockLlm?: string;
  /**
   * A JSONL path, `false` for none; default `dev-session-<time>.jsonl` in the folder the first
   * `manifest.dev.fixtures` glob starts in, else `fixtures/` (A10, L7915).
   */
  record?: string | false;
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
  /** The window opened at boot. */
  readonly window: DevWindowLink;
  readonly storage: "legacy";
  readonly llmLabel: string;
  /** `web.*` and `credentials.*` as the banner prints them. */
  readonly webLabel: string;
  readonly credentialsLabel: string;
  readonly recordPath: string | undefined;
  /** `manifest.dev.fixtures`: the recordings listed and replayable on `/dev/api/fixtures`. */
  readonly fixtures: DevFixtures;
  /** Executa states for the banner and the panel. */
  executaStates(): ExecutaState[];
  /** What the dashboard reports with `?report` (frame titles), for browser tests. */
  onReport(listener: (report: unknown) => void): () => void;
  close(): Promise<void>;
}

export interface ExecutaState {
  tool_id: string;
  type: string;
  dir: string;
  state: string;
  reason?: string;
  stderr: string[];
}

/** The panel's executa list is refreshed at most this often. */
export const PANEL_PUSH_INTERVAL_MS = 100;

/** Lines of a plugin's stderr the banner and panel show. */
export const STDERR_TAIL_LINES = 10;

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (options.storage === "aps") {
    throw new DevLaunchError(
      "--storage aps needs a Nexus server and `anna-app login`, not available in this build; use --storage legacy (the default)",
    );
  }
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
  const devServices = await buildDevServices({
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
  const recorder =
    recordPath === undefined
      ? undefined
      : createSessionRecorder(recordPath, {
          app_id: app.slug,
          user_id: userId,
          // Relative to the project: recordings are committed, a machine's path has no place there.
          manifest: path.relative(app.projectDir, app.manifestPath) || app.manifestPath,
          source: "anna-app dev",
        });

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
  const panel = new DevPanel();
  // Re-registered plugins (after a source change) are new processes: follow every one.
  // State changes and stderr lines refresh the panel's executa list, at most once per tick
  // window (a chatty plugin must not flood the page).
  let executaPush: NodeJS.Timeout | undefined;
  const pushExecutas = () => {
    executaPush ??= setTimeout(() => {
      executaPush = undefined;
      panel.push("executas", executaStates());
    }, PANEL_PUSH_INTERVAL_MS);
  };
  host.onProcess((proc) => {
    proc.on("state", pushExecutas);
    proc.on("stderr", pushExecutas);
  });
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
    storage: "legacy",
    llm: options.llm === "off" ? "off" : "on",
    toolIds: executas.toolIds,
    tokenSecret,
    logger,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(recorder === undefined ? {} : { recorder }),
  });
  const reportListeners = new Set<(report: unknown) => void>();

  const executaStates = (): ExecutaState[] =>
    host.processes().map((p) => ({
      tool_id: p.toolId,
      type: p.spec.type,
      dir: p.spec.dir,
      state: p.state,
      ...(p.stoppedReason === undefined ? {} : { reason: p.stoppedReason }),
      stderr: p.stderrTail(STDERR_TAIL_LINES),
    }));

  let origin = "";
  /** The same page opened as `localhost`, which the origin guard also accepts. */
  let localhostOrigin = "";
  const bundleOptions = (): BundleServerOptions => ({
    bundleDir: app.bundleDir,
    manifest: app.manifest,
    origin,
    toolIdHandles: executas.handles,
  });
  const windowUrl = (wid: string, token: string) =>
    `${origin}/anna-apps/${encodeURIComponent(app.slug)}/dev/index.html?wid=${encodeURIComponent(wid)}&t=${encodeURIComponent(token)}`;
  const windowLink = async (wid: string) => {
    const win = await dispatcher.getWindow(wid);
    if (win === undefined || win.status === "closed" || win.status === "crashed") return undefined;
    const { token, expires_in } = await dispatcher.mintToken(wid, userId);
    return { window: win, token, expires_in, url: windowUrl(wid, token) };
  };

  const sseClients = new Set<ServerResponse>();

  async function devState(): Promise<Record<string, unknown>> {
    const windows = [];
    for (const win of await dispatcher.listWindows(userId)) {
      const link = await windowLink(String(win.window_uuid));
      if (link !== undefined) windows.push({ ...link.window, url: link.url });
    }
    return {
      app: { name: app.name, slug: app.slug, views },
      windows,
      executas: executaStates(),
      calls: panel.calls,
      // With `calls`: the page opens its panel stream after these (/dev/stream?after=…).
      calls_seq: panel.recordedCount,
      storage: "legacy",
      llm: devServices.llmLabel,
      dashboard: dashboardBootState(app.manifest),
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const p = url.pathname;
    const method = req.method ?? "GET";
    if (p === "/" && method === "GET") {
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
      });
      res.end(dashboardHtml(await devState()));
      return;
    }
    const asset = method === "GET" ? dashboardAsset(p) : undefined;
    if (asset !== undefined) {
      res.writeHead(200, { "Content-Type": asset.contentType, "Cache-Control": "no-store" });
      res.end(asset.body);
      return;
    }
    if (p === SDK_ROUTE) {
      res.writeHead(200, {
        "Content-Type": "application/javascript; charset=utf-8",
        "Access-Control-Allow-Origin": "*",
        "Cross-Origin-Resource-Policy": "cross-origin",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      });
      res.end(sdk);
      return;
    }
    const bundlePrefix = `/anna-apps/${app.slug}/dev/`;
    const rawPath = (req.url ?? "/").split("?", 1)[0] ?? "/";
    if (rawPath.startsWith(bundlePrefix) && (method === "GET" || method === "HEAD")) {
      const answer = await serveBundleFile(bundleOptions(), {
        rawPath: rawPath.slice(bundlePrefix.length),
        fetchDest: headerOf(req, "sec-fetch-dest"),
      });
      if (answer.status === 200) {
        res.writeHead(200, { ...answer.headers, "Content-Length": String(answer.body.length) });
        res.end(method === "HEAD" ? undefined : answer.body);
      } else {
        sendError(res, answer.status, answer.code, answer.message);
      }
      return;
    }
    // Everything past the bundle and the SDK is the dashboard's: a request that names another
    // origin — the app's sandboxed iframe (`null`), or any site open in the same browser — gets
    // 403, whatever its method or content type (a text/plain POST needs no CORS preflight).
    // Clients without an Origin header (curl, tests, scripts) are the developer's own. The page
    // may be open as localhost too; a DNS-rebound name is not accepted.
    const from = req.headers.origin;
    if (from !== undefined && from !== origin && from !== localhostOrigin) {
      sendError(
        res,
        403,
        "forbidden_origin",
        `${method} ${p} is answered for the dashboard (${origin}), not for ${from}`,
      );
      return;
    }
    if (p === `${API}/rpc` && method === "POST") return rpc(req, res);
    if (p === `${API}/events/stream` && method === "GET") return eventStream(res);
    if (p === `${API}/windows`) {
      if (method === "GET") {
        sendJson(res, 200, { windows: await dispatcher.listWindows(userId) });
        return;
      }
      if (method === "POST") {
        const body = jsonFields(await readJsonBody(req));
        const view = typeof body.view === "string" ? body.view : undefined;
        // entry_payload is any JSON (a string, a list…); no payload is not `{}`: a single-instance
        // re-open then keeps the window's entry_payload.
        const opened = await windowsRest(() =>
          dispatcher.openWindow(view, {
            userId,
            ...(body.payload === undefined ? {} : { payload: body.payload }),
          }),
        );
        const wid = String(opened.window.window_uuid);
        sendJson(res, 201, { ...opened, url: windowUrl(wid, opened.token) });
        return;
      }
    }
    if (p.startsWith(`${API}/windows/`)) {
      const wid = decodeURIComponent(p.slice(`${API}/windows/`.length));
      if (method === "GET") {
        const link = await windowLink(wid);
        if (link === undefined) sendError(res, 404, "not_found", `no live window ${wid}`);
        else sendJson(res, 200, link);
        return;
      }
      if (method === "PATCH") {
        const { patch, focus } = parseWindowPatch(await readJsonBody(req));
        const window = await windowsRest(async () => {
          const patched = await dispatcher.patchWindow(wid, patch, userId);
          if (!focus) return patched;
          await dispatcher.windows.focus(wid);
          return dispatcher.getWindow(wid);
        });
        sendJson(res, 200, { window });
        return;
      }
      if (method === "DELETE") {
        await windowsRest(() => dispatcher.closeWindow(wid, "user", userId));
        sendJson(res, 200, { ok: true });
        return;
      }
    }
    if (p === "/dev/api/state" && method === "GET") {
      sendJson(res, 200, await devState());
      return;
    }
    if (p === "/dev/stream" && method === "GET") {
      const after = Number(url.searchParams.get("after") ?? Number.NaN);
      openSse(res);
      panel.attach(res, Number.isInteger(after) && after >= 0 ? after : undefined);
      return;
    }
    if (p === "/dev/api/events" && method === "POST") {
      const body = await readJsonBody(req);
      if (isPageKind(body)) {
        sendJson(res, 200, { page_event: await recordPageEvent(pageEventDeps, body) });
        return;
      }
      const event = await publishSimulatedEvent(dispatcher, userId, body);
      sendJson(res, 202, { event });
      return;
    }
    if (await fixtureRoute(req, res, p, fixtureDeps)) return;
    if (p === "/dev/api/report" && method === "POST") {
      const report = await readJsonBody(req);
      for (const listener of reportListeners) listener(report);
      sendJson(res, 200, { ok: true });
      return;
    }
    sendError(res, 404, "not_found", `no route ${method} ${p}`);
  }

  async function rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = jsonFields(await readJsonBody(req));
    const { id, window_uuid: wid, ns, method } = body;
    if (
      (typeof id !== "string" && typeof id !== "number") ||
      typeof wid !== "string" ||
      typeof ns !== "string" ||
      typeof method !== "string"
    ) {
      sendJson(res, 400, {
        ok: false,
        error: {
          code: "invalid_arg",
          message: "the envelope needs id, window_uuid, ns and method (L6327)",
        },
      });
      return;
    }
    const args = body.args ?? {};
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const token = headerOf(req, "x-anna-app-token");
    const answer = await answerCall(token, wid, String(id), ns, method, args, abort.signal);
    sendJson(res, 200, { id, ...answer });
  }

  /** One Host API call as the iframe makes it: mocks, else the dispatcher; always the panel. */
  async function answerCall(
    token: string | undefined,
    wid: string,
    id: string,
    ns: string,
    method: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<CallResult> {
    const started = performance.now();
    const mocked = await mocks.answer(token, wid, ns, method, args);
    if (mocked !== undefined) {
      recorder?.req({ id, ns, method, args, window_uuid: wid });
      recorder?.res({ id, ns, method, ...mocked });
    }
    const answer =
      mocked ??
      (await dispatcher.call(token, ns, method, args, {
        windowUuid: wid,
        ...(signal === undefined ? {} : { signal }),
      }));
    const ms = Math.round((performance.now() - started) * 100) / 100;
    panel.record({
      id,
      ts: Date.now(),
      window_uuid: wid,
      ns,
      method,
      args,
      outcome: outcomeOf(answer),
      ms,
      ...(answer.ok ? { result: answer.result } : { error: answer.error }),
    });
    return answer;
  }

  const pageEventDeps = {
    dispatcher,
    userId,
    record: (event: PageEvent) => recorder?.event(event),
  };

  const fixtureDeps = {
    projectDir: app.projectDir,
    fixtures,
    recordPath,
    bootWindow: () => bootWid,
    mintToken: async (wid: string) => (await windowLink(wid))?.token,
    call: answerCall,
    onReplay: (report: unknown) => panel.push("fixture_replay", report),
  };

  function eventStream(res: ServerResponse): void {
    openSse(res);
    sseClients.add(res);
    const unsubscribe = dispatcher.events.subscribe({ userId, appId: app.slug }, (event) => {
      // Ended by close() but not yet closed: a write now would be an unhandled 'error'.
      if (res.writableEnded) return;
      res.write(`event: data_model/AnnaAppEvent\ndata: ${JSON.stringify(event)}\n\n`);
    });
    res.on("close", () => {
      unsubscribe();
      sseClients.delete(res);
    });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, error.status, error.code, error.message);
        return;
      }
      logger.error("dev server route failed", { url: req.url, error: String(error) });
      sendError(res, 500, "internal_error", "the harness failed; see its log");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new DevLaunchError(
          error.code === "EADDRINUSE"
            ? `port ${options.port ?? DEV_DEFAULT_PORT} is in use; pass --port <n> (0 picks a free one)`
            : `cannot listen: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port ?? DEV_DEFAULT_PORT, DEV_HOST, () => resolve());
  }).catch(async (error: unknown) => {
    dispatcher.close();
    await host.close();
    await devServices.close();
    throw error;
  });

  const port = (server.address() as AddressInfo).port;
  origin = `http://${DEV_HOST}:${port}`;
  localhostOrigin = `http://localhost:${port}`;

  const bootView =
    options.view ?? views.find((_, i) => app.manifest.ui?.views[i]?.default) ?? views[0];
  let opened: Awaited<ReturnType<Dispatcher["openWindow"]>>;
  try {
    opened = await dispatcher.openWindow(bootView, { userId });
    if (dev?.seed_storage) {
      const wid = String(opened.window.window_uuid);
      await dispatcher
        .patchWindow(wid, { runtime_state_patch: dev.seed_storage }, userId)
        .catch((error: unknown) => {
          if (!isHostApiError(error)) throw error;
          throw new DevLaunchError(`manifest.dev.seed_storage: ${error.message}`, {
            cause: error,
          });
        });
    }
  } catch (error) {
    // Half-started: stop listening and stop the services, so the process can exit with the error.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    dispatcher.close();
    await host.close();
    await devServices.close();
    throw error;
  }
  const bootWid = String(opened.window.window_uuid);
  recorder?.start();
  const keepalive = setInterval(() => {
    for (const client of sseClients) client.write(": keepalive\n\n");
  }, SSE_KEEPALIVE_MS);
  keepalive.unref();

  const watchers: Watcher[] = [];
  if (options.watch !== false) {
    watchers.push(watchBundle(app.bundleDir, () => panel.push("reload", { at: Date.now() })));
    watchers.push(
      ...watchExecutas(executas.specs, (toolId) => {
        const proc = host.get(userId, toolId);
        // A running plugin is swapped for a fresh registration: it starts with the new source on
        // its next invoke (lazily, like the first start). An idle one already will.
        if (proc !== undefined && proc.state !== "idle") {
          const spec = proc.spec;
          void host.unregister(userId, toolId).then(
            () => {
              host.register(spec, { userId });
              panel.push("executas", executaStates());
            },
            (error: unknown) =>
              logger.error("executa restart failed", { toolId, error: String(error) }),
          );
        }
      }),
    );
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
    window: { window_uuid: bootWid, view: bootView ?? "", url: windowUrl(bootWid, opened.token) },
    storage: "legacy",
    llmLabel: devServices.llmLabel,
    webLabel: devServices.webLabel,
    credentialsLabel: devServices.credentialsLabel,
    recordPath,
    fixtures,
    executaStates,
    onReport(listener) {
      reportListeners.add(listener);
      return () => reportListeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        clearInterval(keepalive);
        for (const watcher of watchers) watcher.close();
        panel.close();
        for (const client of sseClients) client.end();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        dispatcher.close();
        await host.close();
        // After the host: its plugins stopping re-arm the panel's executa refresh.
        clearTimeout(executaPush);
        await devServices.close();
      })();
      return closing;
    },
  };
}

/** A `--mock-llm` file that cannot be read or parsed is a launch error naming it (exit 2). */
function mockLlmLaunchError(error: unknown): never {
  if (!(error instanceof MockFixtureError)) throw error;
  const where = error.line > 0 ? `${error.file}:${error.line}` : error.file;
  const why = error.message.slice(`${error.file}:${error.line}: `.length);
  throw new DevLaunchError(`--mock-llm ${where}: ${why}`, { cause: error });
}

/** The SDK bundle, or a launch error that says how to build it. */
function readSdk(sdkPath: string | undefined): Buffer {
  let file = sdkPath;
  try {
    file ??= createRequire(import.meta.url).resolve("@anna-ai/app-runtime/bundle");
    return readFileSync(file);
  } catch (error) {
    throw new DevLaunchError(
      `the app SDK bundle is missing (${file ?? "@anna-ai/app-runtime/bundle"}); run npm run build`,
      { cause: error },
    );
  }
}

function openSse(res: ServerResponse): void {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
  });
  res.write(": connected\n\n");
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
