// The single-app dispatcher: `anna-app dev`, `mountBundle` and the tests build one per app, with
// its manifest, user and grants fixed at creation. It is a thin configuration of the multi-tenant
// dispatcher (multi-tenant-dispatcher.ts): one app resolver entry, fixed grants, the memory
// stores (its chat store's log is `dispatcher.chat`), and this app as the default of every
// window method.
import { DEFAULT_DEV_USER_ID, type AppManifest, type Recorder } from "@anna-ai/app-schema";
import type { CredentialsGrant, HostServices, WebGrant } from "@anna-ai/executa-host";
import type { Logger } from "@anna-ai/jsonrpc";
import type { AppsCatalog } from "../apps/installed-apps.js";
import { createMemoryChatStore } from "../chat/memory-chat-store.js";
import type { Clock } from "../clock.js";
import type { EventBus } from "../events/event-bus.js";
import { WindowTokenIssuer } from "../tokens/window-tokens.js";
import type { WindowStore } from "../windows/window-store.js";
import type { Dispatcher } from "./dispatcher-api.js";
import { createMultiTenantDispatcher } from "./multi-tenant-dispatcher.js";
import { fixedGrants, type AppResolver, type ResolvedApp } from "./tenancy.js";
import type { LlmMode, StorageBackend, ToolHost } from "./types.js";

export type {
  CallOptions,
  CallResult,
  Dispatcher,
  HostApiDispatcher,
  OpenedWindowView,
  OpenWindowRequest,
  WindowPatch,
} from "./dispatcher-api.js";
export { MAX_IN_FLIGHT_PER_WINDOW } from "./multi-tenant-dispatcher.js";

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

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const appId = options.appId;
  const versionId = options.versionId ?? "dev";
  const userId = options.userId ?? String(DEFAULT_DEV_USER_ID);
  const app: ResolvedApp = {
    appId,
    versionId,
    manifest: options.manifest,
    ...(options.toolIds === undefined ? {} : { toolIds: options.toolIds }),
    ...(options.appName === undefined ? {} : { name: options.appName }),
  };
  const apps: AppResolver = {
    resolve: (query) =>
      Promise.resolve(
        query.appId === appId && (query.versionId === undefined || query.versionId === versionId)
          ? app
          : undefined,
      ),
  };
  const chat = createMemoryChatStore();
  const dispatcher = createMultiTenantDispatcher({
    apps,
    grants: fixedGrants({
      ...(options.webGrant === undefined ? {} : { webGrant: options.webGrant }),
      ...(options.credentialsGrant === undefined
        ? {}
        : { credentialsGrant: options.credentialsGrant }),
    }),
    tokens: new WindowTokenIssuer({
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.tokenSecret === undefined ? {} : { secret: options.tokenSecret }),
      ...(options.tokenTtlSeconds === undefined ? {} : { ttlSeconds: options.tokenTtlSeconds }),
    }),
    chatStore: chat,
    defaultAppId: appId,
    defaultUserId: userId,
    ...(options.apps === undefined ? {} : { installedApps: options.apps }),
    ...(options.windowStore === undefined ? {} : { windowStore: options.windowStore }),
    ...(options.events === undefined ? {} : { events: options.events }),
    ...(options.services === undefined ? {} : { services: options.services }),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.recorder === undefined ? {} : { recorder: options.recorder }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.llm === undefined ? {} : { llm: options.llm }),
    ...(options.windowIdleMs === undefined ? {} : { windowIdleMs: options.windowIdleMs }),
  });
  return {
    ...dispatcher,
    appId,
    userId,
    chat: chat.log,
    windows: dispatcher.windowsOf(app),
    // Calls are for this app: another app's token is refused before its window is looked up.
    call: (token, ns, method, args, callOptions = {}) =>
      dispatcher.call(token, ns, method, args, {
        ...callOptions,
        appId: callOptions.appId ?? appId,
      }),
  };
}
