// The Host API dispatcher (I, U45): auth (window token) → ACL (`ui.host_api`, A1) → argument
// validation → handler. Every outcome is the spec's envelope `{ok, result}` / `{ok: false,
// error: {code, message, details?}}`; a denial never reaches the handler. Every call, answer and
// event goes to the recorder (A10).
import { randomUUID } from "node:crypto";
import {
  DEFAULT_DEV_USER_ID,
  type AnnaAppEvent,
  type AppManifest,
  type Recorder,
  type WindowGeometry,
} from "@anna-ai/app-schema";
import type { CredentialsGrant, HostServices, WebGrant } from "@anna-ai/executa-host";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import type { z } from "zod";
import { canonicalMethod, createHostApiAcl } from "../acl/host-api-acl.js";
import { AppDeck, selfApp, type AppsCatalog } from "../apps/installed-apps.js";
import { SYSTEM_CLOCK, type Clock } from "../clock.js";
import { HostApiError, type HostApiErrorWire } from "../errors/host-api-error.js";
import { createEventBus, type EventBus } from "../events/event-bus.js";
import { appsMethods } from "../handlers/apps-methods.js";
import { chatMethods, type ChatLog } from "../handlers/chat-methods.js";
import { credentialsMethods } from "../handlers/credentials-methods.js";
import {
  agentMethods,
  imageMethods,
  llmMethods,
  uploadMethods,
} from "../handlers/model-methods.js";
import { storageMethods } from "../handlers/storage-methods.js";
import { stubMethods } from "../handlers/stub-methods.js";
import { filesMethods } from "../handlers/files-methods.js";
import { createToolJobs } from "../handlers/tool-jobs.js";
import { toolsMethods } from "../handlers/tools-methods.js";
import { webMethods } from "../handlers/web-methods.js";
import { windowMethods } from "../handlers/window-methods.js";
import { windowView } from "../handlers/window-view.js";
import { WindowTokenIssuer } from "../tokens/window-tokens.js";
import { createMemoryWindowStore } from "../windows/memory-window-store.js";
import { WindowManager, type OpenWindowOptions } from "../windows/window-manager.js";
import type { WindowStatus } from "../windows/window-status.js";
import type { WindowStore } from "../windows/window-store.js";
import type {
  CallContext,
  DispatcherCore,
  LlmMode,
  MethodTable,
  StorageBackend,
  ToolHost,
} from "./types.js";

/** In-flight calls one window may have before `rate_limited` (the cap is unspecified, Z25). */
export const MAX_IN_FLIGHT_PER_WINDOW = 32;

export interface DispatcherOptions {
  /** The parsed app manifest (`AppManifestSchema`); `ui.host_api` is the ACL. */
  manifest: AppManifest;
  appId: string;
  /** `dev` in the harness (A8's `/anna-apps/<slug>/dev/`). */
  versionId?: string;
  /** The user windows open for when `openWindow` names none. */
  userId?: string;
  /** The same host services `executa dev` gives plugins. Missing ones answer `not_implemented`. */
  services?: Partial<HostServices>;
  /** The Executa pool for `tools.*` (an `ExecutaHost`). */
  host?: ToolHost;
  windowStore?: WindowStore;
  clock?: Clock;
  recorder?: Recorder;
  logger?: Logger;
  /** `storage.*` backend; default `legacy` (runtime_state), as `anna-app dev --storage`. */
  storage?: StorageBackend;
  /** `off` = `--no-llm` (A7). */
  llm?: LlmMode;
  /** `bundled:<handle>` → dev tool_id, so manifests that name bundled executas resolve. */
  toolIds?: Readonly<Record<string, string>>;
  /** Window-token signing secret (≥ 32 bytes); random per dispatcher when omitted. */
  tokenSecret?: Uint8Array;
  /** Default 120 s (U41). */
  tokenTtlSeconds?: number;
  /** Idle reaper limit; default 24 h (U33). */
  windowIdleMs?: number;
  /** Share one bus between dispatchers (several apps, one SSE stream); default a new one. */
  events?: EventBus;
  /** The user's `web_grant` (R152). Default disabled: `web.*` answers `APP_NOT_GRANTED`. */
  webGrant?: WebGrant;
  /**
   * The user's `credentials_grant` (R151), `providers` empty = every provider the manifest
   * declares. Default disabled: `credentials.*` answers `APP_NOT_GRANTED`.
   */
  credentialsGrant?: CredentialsGrant;
  /** The app's display name for `apps.*` (app.json `name`); default the manifest's, else appId. */
  appName?: string;
  /** Other installed apps for `apps.*`; the dispatcher's own app is always listed. */
  apps?: AppsCatalog;
}

export type CallResult = { ok: true; result: unknown } | { ok: false; error: HostApiErrorWire };

export interface CallOptions {
  /** The envelope's `window_uuid`; must match the token's window. */
  windowUuid?: string;
  signal?: AbortSignal;
}

export interface OpenedWindowView {
  window: Record<string, unknown>;
  /** A fresh window token for the iframe URL (`?wid=…&t=…`). */
  token: string;
  expires_in: number;
  /** True when a single-instance view was re-opened (A6). */
  reused: boolean;
}

export interface WindowPatch {
  geometry?: WindowGeometry;
  status?: WindowStatus;
  title?: string;
  runtime_state_patch?: Record<string, unknown>;
}

export interface Dispatcher {
  readonly appId: string;
  readonly userId: string;
  /** Runs one Host API call through the pipeline. Never rejects. */
  call(
    token: string | undefined,
    ns: string,
    method: string,
    args?: unknown,
    options?: CallOptions,
  ): Promise<CallResult>;
  /** Opens (or, for single-instance views, re-opens) a window and mints its token. */
  openWindow(view?: string, options?: Partial<OpenWindowOptions>): Promise<OpenedWindowView>;
  /** A fresh token for a live window of `userId` (hydrate, or the page's refresh path). */
  mintToken(windowUuid: string, userId?: string): Promise<{ token: string; expires_in: number }>;
  getWindow(windowUuid: string): Promise<Record<string, unknown> | undefined>;
  listWindows(
    userId?: string,
    conversationSessionUuid?: string | null,
  ): Promise<Record<string, unknown>[]>;
  /** The REST `PATCH /windows/{wid}` (U27). */
  patchWindow(
    windowUuid: string,
    patch: WindowPatch,
    userId?: string,
  ): Promise<Record<string, unknown>>;
  closeWindow(windowUuid: string, reason?: string, userId?: string): Promise<void>;
  /** Closes idle windows of the users seen so far (U33). */
  reapIdle(): Promise<string[]>;
  /** Cancels running tool jobs; the dispatcher's windows and events stay readable. */
  close(): void;
  /** Publishes an event (dev panel simulations, server-side emitters) and records it. */
  emit(userId: string, event: AnnaAppEvent): void;
  readonly events: EventBus;
  readonly chat: ChatLog;
  readonly windows: WindowManager;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const logger = options.logger ?? NULL_LOGGER;
  const recorder = options.recorder;
  const events = options.events ?? createEventBus({ logger });
  const appId = options.appId;
  const versionId = options.versionId ?? "dev";
  const defaultUser = options.userId ?? String(DEFAULT_DEV_USER_ID);
  const ui = options.manifest.ui ?? undefined;
  const tokens = new WindowTokenIssuer({
    clock,
    ...(options.tokenSecret === undefined ? {} : { secret: options.tokenSecret }),
    ...(options.tokenTtlSeconds === undefined ? {} : { ttlSeconds: options.tokenTtlSeconds }),
  });
  const users = new Set<string>([defaultUser]);

  const emit = (userId: string, event: AnnaAppEvent) => {
    recorder?.event({
      name: event.kind,
      ...(typeof event.window_uuid === "string" ? { window_uuid: event.window_uuid } : {}),
      payload: event.payload,
    });
    events.publish(userId, event);
  };

  const windows = new WindowManager({
    store: options.windowStore ?? createMemoryWindowStore(),
    appId,
    versionId,
    views: ui?.views ?? [],
    stateMerge: ui?.state_merge ?? "last_writer_wins",
    clock,
    emit,
    ...(options.windowIdleMs === undefined ? {} : { idleMs: options.windowIdleMs }),
  });

  const core: DispatcherCore = {
    manifest: options.manifest,
    appId,
    versionId,
    acl: createHostApiAcl(ui?.host_api),
    windows,
    events,
    emit,
    clock,
    logger,
    services: options.services ?? {},
    host: options.host,
    storageBackend: options.storage ?? "legacy",
    llm: options.llm ?? "on",
    toolIds: options.toolIds ?? {},
    webGrant: options.webGrant ?? { enabled: false },
    credentialsGrant: options.credentialsGrant ?? { enabled: false },
    selfApp: selfApp(options.manifest, appId, versionId, options.appName),
    apps: options.apps,
    deck: new AppDeck(),
  };
  const chat: ChatLog = { artifacts: [], messages: [] };
  const jobs = createToolJobs(core);
  const table: MethodTable = {
    ...stubMethods(),
    ...windowMethods(),
    ...toolsMethods(jobs),
    ...storageMethods(core.storageBackend),
    ...filesMethods(),
    ...chatMethods(chat),
    ...llmMethods(),
    ...agentMethods(),
    ...imageMethods(),
    ...uploadMethods(),
    ...webMethods(),
    ...credentialsMethods(),
    ...appsMethods(),
  };
  const inFlight = new Map<string, number>();

  async function mint(windowUuid: string, userId: string) {
    const token = await tokens.mint({ windowUuid, userId, appId, versionId });
    return { token, expires_in: tokens.ttlSeconds };
  }

  async function ownedLive(windowUuid: string, userId: string) {
    const window = await windows.requireLive(windowUuid);
    if (window.userId !== userId) {
      throw new HostApiError("not_found", `no window ${windowUuid}`, { window_uuid: windowUuid });
    }
    return window;
  }

  async function run(
    token: string | undefined,
    ns: string,
    rawMethod: string,
    args: unknown,
    callId: string,
    options: CallOptions,
  ): Promise<unknown> {
    // 1. Auth: the token, its binding to the envelope's window and to this app.
    const claims = await tokens.verify(token);
    if (options.windowUuid !== undefined && options.windowUuid !== claims.windowUuid) {
      throw new HostApiError("invalid_token", "the token belongs to another window");
    }
    if (claims.appId !== appId) {
      throw new HostApiError("invalid_token", "the token belongs to another app");
    }
    const window = await windows.store.get(claims.windowUuid);
    if (window === undefined || window.userId !== claims.userId || window.appId !== appId) {
      throw new HostApiError("invalid_token", "the token names no window of this app");
    }
    if (window.status === "closed" || window.status === "crashed") {
      throw new HostApiError("not_found", `window ${window.windowUuid} is ${window.status}`, {
        window_uuid: window.windowUuid,
        status: window.status,
      });
    }
    users.add(window.userId);
    // The SDK's pull refresh (docs/app-runtime.md): a valid token buys a fresh one.
    if (ns === "auth" && rawMethod === "refresh") return mint(window.windowUuid, window.userId);

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
      await windows.touch(window.windowUuid);
      const ctx: CallContext = {
        callId,
        ns,
        method: methodName,
        window,
        signal: options.signal,
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
    appId,
    userId: defaultUser,
    events,
    chat,
    windows,
    emit,
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
      try {
        outcome = { ok: true, result: await run(token, ns, rawMethod, args, id, callOptions) };
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
      return outcome;
    },
    async openWindow(view, openOptions = {}) {
      const userId = openOptions.userId ?? defaultUser;
      users.add(userId);
      const opened = await windows.open({
        ...openOptions,
        userId,
        ...(view === undefined ? {} : { view }),
      });
      const minted = await mint(opened.window.windowUuid, userId);
      return { window: windowView(opened.window), ...minted, reused: opened.reused };
    },
    async mintToken(windowUuid, userId = defaultUser) {
      await ownedLive(windowUuid, userId);
      return mint(windowUuid, userId);
    },
    async getWindow(windowUuid) {
      const found = await windows.store.get(windowUuid);
      return found === undefined || found.appId !== appId ? undefined : windowView(found);
    },
    async listWindows(userId = defaultUser, conversationSessionUuid) {
      return (await windows.list(userId, conversationSessionUuid)).map(windowView);
    },
    async patchWindow(windowUuid, patch, userId = defaultUser) {
      await ownedLive(windowUuid, userId);
      if (patch.geometry !== undefined) await windows.patchGeometry(windowUuid, patch.geometry);
      if (patch.title !== undefined) await windows.setTitle(windowUuid, patch.title);
      if (patch.runtime_state_patch !== undefined) {
        await windows.patchRuntimeState(windowUuid, patch.runtime_state_patch);
      }
      if (patch.status !== undefined) await windows.setStatus(windowUuid, patch.status);
      return windowView(await windows.require(windowUuid));
    },
    async closeWindow(windowUuid, reason, userId = defaultUser) {
      await ownedLive(windowUuid, userId);
      await windows.close(windowUuid, reason);
    },
    reapIdle() {
      return windows.reapIdle(users);
    },
    close() {
      jobs.cancelAll();
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
