// The Host API dispatcher for every user and app (I, U45): auth (window token → user, app,
// version, window) → the app version and the user's grants, looked up per call → ACL
// (`ui.host_api`, A1) → argument validation → handler. Every outcome is the spec's envelope
// `{ok, result}` / `{ok: false, error: {code, message, details?}}`; a denial never reaches the
// handler. Every call, answer and event goes to the recorder (A10). State lives in the injected
// stores; only in-flight counters, running jobs' abort controllers and the users seen (for the
// idle reaper) are this process's.
import { randomUUID } from "node:crypto";
import type { AnnaAppEvent, AppManifest, Recorder } from "@anna-ai/app-schema";
import type { HostServices } from "@anna-ai/executa-host";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import type { z } from "zod";
import { canonicalMethod, createHostApiAcl } from "../acl/host-api-acl.js";
import type { DeckStore } from "../apps/deck-store.js";
import { selfApp } from "../apps/installed-apps.js";
import { createMemoryDeckStore } from "../apps/memory-deck-store.js";
import type { ChatStore } from "../chat/chat-store.js";
import { createMemoryChatStore } from "../chat/memory-chat-store.js";
import { SYSTEM_CLOCK, type Clock } from "../clock.js";
import { HostApiError } from "../errors/host-api-error.js";
import { createEventBus, type EventBus } from "../events/event-bus.js";
import { createMemoryEventLog, sequencedEventBus } from "../events/event-log.js";
import { hostApiMethodTable } from "../handlers/method-table.js";
import { createToolJobs } from "../handlers/tool-jobs.js";
import { windowView } from "../handlers/window-view.js";
import { createMemoryToolJobStore } from "../jobs/memory-tool-job-store.js";
import type { ToolJobStore } from "../jobs/tool-job-store.js";
import { WindowTokenIssuer, type WindowTokenService } from "../tokens/window-tokens.js";
import { createMemoryWindowStore } from "../windows/memory-window-store.js";
import { WINDOW_IDLE_MS, WindowManager, zIndexCounter } from "../windows/window-manager.js";
import { isLiveStatus } from "../windows/window-status.js";
import type { WindowRecord, WindowStore } from "../windows/window-store.js";
import type { CallOptions, CallResult, HostApiDispatcher } from "./dispatcher-api.js";
import type { AppResolver, GrantResolver, InstalledAppsResolver, ResolvedApp } from "./tenancy.js";
import type {
  AppScope,
  CallContext,
  LlmMode,
  MethodTable,
  StorageBackend,
  ToolHost,
} from "./types.js";

/** In-flight calls one window may have before `rate_limited` (the cap is unspecified, Z25). */
export const MAX_IN_FLIGHT_PER_WINDOW = 32;

export interface MultiTenantDispatcherOptions {
  /** The app version a window token names → its manifest and tool ids. */
  apps: AppResolver;
  /** The user's `web_grant` and `credentials_grant` for an app, asked on every call. */
  grants: GrantResolver;
  /** The user's other installed apps for `apps.*`; without it only the calling app is listed. */
  installedApps?: InstalledAppsResolver;
  /** Mints and checks window tokens; default an HS256 issuer with a random per-process secret. */
  tokens?: WindowTokenService;
  /** The stores; each defaults to its in-memory implementation (not persisted). */
  windowStore?: WindowStore;
  toolJobStore?: ToolJobStore;
  chatStore?: ChatStore;
  deckStore?: DeckStore;
  /** Events are published per user and carry their app (subscribers filter by both). */
  events?: EventBus;
  /** The same host services `executa dev` gives plugins. Missing ones answer `not_implemented`. */
  services?: Partial<HostServices>;
  /** The Executa pool for `tools.*` (an `ExecutaHost`). */
  host?: ToolHost;
  clock?: Clock;
  recorder?: Recorder;
  logger?: Logger;
  /** `storage.*` backend; default `legacy` (runtime_state). */
  storage?: StorageBackend;
  /** `off` = `--no-llm` (A7). */
  llm?: LlmMode;
  /** Idle reaper limit; default 24 h (U33). */
  windowIdleMs?: number;
  /** The app `openWindow` opens and the window methods are limited to when none is named. */
  defaultAppId?: string;
  /** The user `openWindow`, `listWindows`, … act for when none is named. */
  defaultUserId?: string;
}

export interface MultiTenantDispatcher extends HostApiDispatcher {
  /** The window manager of one app version (the shared store, its views, the shared z-order). */
  windowsOf(app: ResolvedApp): WindowManager;
}

export function createMultiTenantDispatcher(
  options: MultiTenantDispatcherOptions,
): MultiTenantDispatcher {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const logger = options.logger ?? NULL_LOGGER;
  const recorder = options.recorder;
  // Numbered in a log of this process by default, so a dropped event stream resumes (a server
  // of several nodes passes a bus whose log they share).
  const events =
    options.events ??
    sequencedEventBus(createEventBus({ logger }), createMemoryEventLog(), { logger });
  const tokens = options.tokens ?? new WindowTokenIssuer({ clock });
  const windowStore = options.windowStore ?? createMemoryWindowStore();
  const chat = options.chatStore ?? createMemoryChatStore();
  const deck = options.deckStore ?? createMemoryDeckStore();
  const jobs = createToolJobs(options.toolJobStore ?? createMemoryToolJobStore());
  const storageBackend = options.storage ?? "legacy";
  const nextZIndex = zIndexCounter();
  const users = new Set<string>(options.defaultUserId === undefined ? [] : [options.defaultUserId]);

  /**
   * An answer waits for the events its call published to be in the log (D-core-39): what the
   * client was told happened, a resumed stream can read back, on any node, whatever dies next.
   */
  const eventsLogged = (userId: string): Promise<void> =>
    events.settledFor?.(userId) ?? Promise.resolve();

  const emit = (userId: string, event: AnnaAppEvent) => {
    recorder?.event({
      name: event.kind,
      ...(typeof event.window_uuid === "string" ? { window_uuid: event.window_uuid } : {}),
      payload: event.payload,
    });
    events.publish(userId, event);
  };

  function windowsOf(app: ResolvedApp): WindowManager {
    return managerFor(app.appId, app.versionId, app.manifest.ui ?? undefined);
  }

  function managerFor(appId: string, versionId: string, ui: AppManifest["ui"]): WindowManager {
    return new WindowManager({
      store: windowStore,
      appId,
      versionId,
      views: ui?.views ?? [],
      stateMerge: ui?.state_merge ?? "last_writer_wins",
      clock,
      emit,
      nextZIndex,
    });
  }

  /** A window's manager; an app no longer served still gets one, so its windows can close. */
  async function windowsOfWindow(window: WindowRecord): Promise<WindowManager> {
    const app = await options.apps.resolve({
      appId: window.appId,
      versionId: window.versionId,
      userId: window.userId,
    });
    return app !== undefined
      ? windowsOf(app)
      : managerFor(window.appId, window.versionId, undefined);
  }

  async function scopeFor(app: ResolvedApp, userId: string): Promise<AppScope> {
    const grants = await options.grants.grants({
      userId,
      appId: app.appId,
      versionId: app.versionId,
    });
    return {
      manifest: app.manifest,
      appId: app.appId,
      versionId: app.versionId,
      acl: createHostApiAcl(app.manifest.ui?.host_api),
      windows: windowsOf(app),
      events,
      emit,
      clock,
      logger,
      services: options.services ?? {},
      host: options.host,
      storageBackend,
      llm: options.llm ?? "on",
      toolIds: app.toolIds ?? {},
      webGrant: grants.webGrant ?? { enabled: false },
      credentialsGrant: grants.credentialsGrant ?? { enabled: false },
      selfApp: selfApp(app.manifest, app.appId, app.versionId, app.name),
      apps: options.installedApps,
      deck,
      chat,
      jobs,
    };
  }

  const table: MethodTable = hostApiMethodTable(jobs, storageBackend);
  const inFlight = new Map<string, number>();

  async function mint(window: Pick<WindowRecord, "windowUuid" | "userId" | "appId" | "versionId">) {
    const token = await tokens.mint({
      windowUuid: window.windowUuid,
      userId: window.userId,
      appId: window.appId,
      versionId: window.versionId,
    });
    return { token, expires_in: tokens.ttlSeconds };
  }

  function userOf(userId: string | undefined): string {
    const user = userId ?? options.defaultUserId;
    if (user === undefined) {
      throw new HostApiError("invalid_arg", "name the user: this dispatcher has no default user");
    }
    return user;
  }

  /** The live window `windowUuid` of `userId` (and of `appId` when given); else `not_found`. */
  async function ownedLive(windowUuid: string, userId: string, appId: string | undefined) {
    const window = await windowStore.get(windowUuid);
    // Another user's or app's window is indistinguishable from a missing one.
    if (
      window === undefined ||
      window.userId !== userId ||
      (appId !== undefined && window.appId !== appId)
    ) {
      throw new HostApiError("not_found", `no window ${windowUuid}`, { window_uuid: windowUuid });
    }
    if (!isLiveStatus(window.status)) {
      throw new HostApiError("not_found", `window ${windowUuid} is ${window.status}`, {
        window_uuid: windowUuid,
        status: window.status,
      });
    }
    return window;
  }

  async function run(
    token: string | undefined,
    ns: string,
    rawMethod: string,
    args: unknown,
    callId: string,
    callOptions: CallOptions,
    /** Told whose call this is once the token is verified. */
    caller: { userId?: string },
  ): Promise<unknown> {
    // 1. Auth: the token, its binding to the envelope's window, to the route's app, and to a
    // window of that user, app and version.
    const claims = await tokens.verify(token);
    if (callOptions.windowUuid !== undefined && callOptions.windowUuid !== claims.windowUuid) {
      throw new HostApiError("invalid_token", "the token belongs to another window");
    }
    if (callOptions.appId !== undefined && claims.appId !== callOptions.appId) {
      throw new HostApiError("invalid_token", "the token belongs to another app");
    }
    const window = await windowStore.get(claims.windowUuid);
    if (
      window === undefined ||
      window.userId !== claims.userId ||
      window.appId !== claims.appId ||
      window.versionId !== claims.versionId
    ) {
      throw new HostApiError("invalid_token", "the token names no window of this app");
    }
    if (window.status === "closed" || window.status === "crashed") {
      throw new HostApiError("not_found", `window ${window.windowUuid} is ${window.status}`, {
        window_uuid: window.windowUuid,
        status: window.status,
      });
    }
    users.add(window.userId);
    caller.userId = window.userId;
    // The SDK's pull refresh (docs/app-runtime.md): a valid token buys a fresh one.
    if (ns === "auth" && rawMethod === "refresh") return mint(window);

    // 1b. The app version and the user's grants, as they are now (no caching: a revoked grant
    // is refused on the next call).
    const app = await options.apps.resolve({
      appId: window.appId,
      versionId: window.versionId,
      userId: window.userId,
    });
    if (app === undefined) {
      throw new HostApiError(
        "invalid_token",
        `app ${window.appId} version ${window.versionId} is no longer served to this user`,
      );
    }
    const core = await scopeFor(app, window.userId);

    // 2. ACL.
    const methodName = canonicalMethod(ns, rawMethod);
    const decision = core.acl.check(ns, methodName);
    if (!decision.allowed) {
      const unknown = table[`${ns}.${methodName}`] === undefined;
      throw new HostApiError(unknown ? "method_not_found" : "permission_denied", decision.reason, {
        ns,
        method: rawMethod,
      });
    }
    const handler = table[`${ns}.${methodName}`];
    if (handler === undefined) {
      throw new HostApiError("not_implemented", `${ns}.${methodName} is not implemented`);
    }

    // 3. Arguments.
    const input = args === undefined || args === null ? {} : args;
    if (typeof input !== "object" || Array.isArray(input)) {
      throw new HostApiError("invalid_arg", "args must be an object");
    }
    const parsed = handler.args.safeParse(input);
    if (!parsed.success) {
      throw new HostApiError("invalid_arg", summariseIssues(parsed.error.issues), {
        issues: parsed.error.issues.map((i) => ({
          path: i.path.map(String).join("."),
          message: i.message,
        })),
      });
    }

    // 4. Handler, under the per-window in-flight cap.
    const count = inFlight.get(window.windowUuid) ?? 0;
    if (count >= MAX_IN_FLIGHT_PER_WINDOW) {
      throw new HostApiError(
        "rate_limited",
        `more than ${MAX_IN_FLIGHT_PER_WINDOW} calls in flight for this window`,
      );
    }
    inFlight.set(window.windowUuid, count + 1);
    try {
      await core.windows.touch(window.windowUuid);
      const ctx: CallContext = {
        callId,
        ns,
        method: methodName,
        window,
        signal: callOptions.signal,
        core,
      };
      return await handler.handle(parsed.data, ctx);
    } finally {
      const left = (inFlight.get(window.windowUuid) ?? 1) - 1;
      if (left === 0) inFlight.delete(window.windowUuid);
      else inFlight.set(window.windowUuid, left);
    }
  }

  return {
    events,
    emit,
    windowsOf,
    async call(token, ns, rawMethod, args, callOptions = {}) {
      const id = randomUUID();
      recorder?.req({
        id,
        ns,
        method: rawMethod,
        args: args ?? {},
        ...(callOptions.windowUuid === undefined ? {} : { window_uuid: callOptions.windowUuid }),
      });
      let outcome: CallResult;
      const caller: { userId?: string } = {};
      try {
        outcome = {
          ok: true,
          result: await run(token, ns, rawMethod, args, id, callOptions, caller),
        };
      } catch (error) {
        if (error instanceof HostApiError) {
          outcome = { ok: false, error: error.toWire() };
        } else {
          logger.error("host api handler failed", { ns, method: rawMethod, error: String(error) });
          outcome = {
            ok: false,
            error: { code: "internal_error", message: `${ns}.${rawMethod} failed on the host` },
          };
        }
      }
      if (outcome.ok)
        recorder?.res({
          id,
          ns,
          method: rawMethod,
          ok: true,
          // The recorder redacts: `credentials.get_token`'s access_token never reaches a file.
          result: outcome.result,
        });
      else recorder?.res({ id, ns, method: rawMethod, ok: false, error: outcome.error });
      if (caller.userId !== undefined) await eventsLogged(caller.userId);
      return outcome;
    },
    async openWindow(view, request = {}) {
      const { appId: requestedApp, versionId, ...openOptions } = request;
      const userId = userOf(openOptions.userId);
      const appId = requestedApp ?? options.defaultAppId;
      if (appId === undefined) {
        throw new HostApiError("invalid_arg", "name the app to open: this dispatcher serves many");
      }
      const app = await options.apps.resolve({
        appId,
        userId,
        ...(versionId === undefined ? {} : { versionId }),
      });
      if (app === undefined) {
        throw new HostApiError("not_found", `no app ${appId} is installed for this user`, {
          app_id: appId,
          ...(versionId === undefined ? {} : { version_id: versionId }),
        });
      }
      users.add(userId);
      const opened = await windowsOf(app).open({
        ...openOptions,
        userId,
        ...(view === undefined ? {} : { view }),
      });
      const minted = await mint(opened.window);
      await eventsLogged(userId);
      return { window: windowView(opened.window), ...minted, reused: opened.reused };
    },
    async mintToken(windowUuid, userId, appId = options.defaultAppId) {
      return mint(await ownedLive(windowUuid, userOf(userId), appId));
    },
    async getWindow(windowUuid, appId = options.defaultAppId) {
      const found = await windowStore.get(windowUuid);
      return found === undefined || (appId !== undefined && found.appId !== appId)
        ? undefined
        : windowView(found);
    },
    async listWindows(userId, conversationSessionUuid, appId = options.defaultAppId) {
      const windows = await windowStore.list({
        userId: userOf(userId),
        statuses: ["active", "minimized"],
        ...(appId === undefined ? {} : { appId }),
        ...(conversationSessionUuid === undefined ? {} : { conversationSessionUuid }),
      });
      return windows.map(windowView);
    },
    async patchWindow(windowUuid, patch, userId, appId = options.defaultAppId) {
      const window = await ownedLive(windowUuid, userOf(userId), appId);
      const windows = await windowsOfWindow(window);
      if (patch.geometry !== undefined) await windows.patchGeometry(windowUuid, patch.geometry);
      if (patch.title !== undefined) await windows.setTitle(windowUuid, patch.title);
      if (patch.runtime_state_patch !== undefined) {
        await windows.patchRuntimeState(windowUuid, patch.runtime_state_patch);
      }
      if (patch.status !== undefined) await windows.setStatus(windowUuid, patch.status);
      if (patch.focus === true) await windows.focus(windowUuid);
      const view = windowView(await windows.require(windowUuid));
      await eventsLogged(window.userId);
      return view;
    },
    async closeWindow(windowUuid, reason, userId, appId = options.defaultAppId) {
      const window = await ownedLive(windowUuid, userOf(userId), appId);
      await (await windowsOfWindow(window)).close(windowUuid, reason);
      await eventsLogged(window.userId);
    },
    async reapIdle(userIds = users) {
      const now = clock();
      const limit = options.windowIdleMs ?? WINDOW_IDLE_MS;
      const closed: string[] = [];
      for (const userId of [...userIds]) {
        for (const window of await windowStore.list({ userId, statuses: ["active"] })) {
          if (now - window.lastSeenAt < limit) continue;
          // Only windows of apps this dispatcher serves: a store shared with other dispatchers
          // (several apps in one harness) keeps theirs.
          const app = await options.apps.resolve({
            appId: window.appId,
            versionId: window.versionId,
            userId,
          });
          if (app === undefined) continue;
          await windowsOf(app).close(window.windowUuid, "idle");
          closed.push(window.windowUuid);
        }
      }
      return closed;
    },
    close() {
      jobs.cancelAll().catch((error: unknown) => {
        logger.error("cancelling tool jobs failed", { error: String(error) });
      });
    },
  };
}

function summariseIssues(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (first === undefined) return "invalid arguments";
  const at = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `;
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : "";
  return `invalid arguments: ${at}${first.message}${more}`;
}
