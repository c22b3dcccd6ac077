import type { AppManifest, AnnaAppEvent, InstalledApp } from "@anna-ai/app-schema";
import type {
  CredentialsGrant,
  HostServices,
  InvokeOptions,
  InvokeOutcome,
  WebGrant,
} from "@anna-ai/executa-host";
import type { Logger } from "@anna-ai/jsonrpc";
import type { z } from "zod";
import type { HostApiAcl } from "../acl/host-api-acl.js";
import type { DeckStore } from "../apps/deck-store.js";
import type { ChatStore } from "../chat/chat-store.js";
import type { Clock } from "../clock.js";
import type { EventBus } from "../events/event-bus.js";
import type { WindowManager } from "../windows/window-manager.js";
import type { WindowRecord } from "../windows/window-store.js";
import type { ToolJobs } from "../handlers/tool-jobs.js";
import type { InstalledAppsResolver } from "./tenancy.js";

/**
 * What `tools.*` needs from the Executa pool: `ExecutaHost` satisfies it. `describe` gives the
 * tool's declared `timeout` (R145); `has` tells a registered plugin from an unknown one.
 */
export interface ToolHost {
  invoke(
    userId: string,
    toolId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    options?: InvokeOptions,
  ): Promise<InvokeOutcome>;
  get(
    userId: string,
    toolId: string,
  ): { manifest?: { tools: { name: string; timeout?: number | null }[] } | undefined } | undefined;
}

/** `storage.*` backend (R129): the window's runtime_state, or APS through the storage service. */
export type StorageBackend = "legacy" | "aps";

/** `llm.*`/`agent.*` mode: `off` answers `llm_disabled` (A7, `--no-llm`). */
export type LlmMode = "on" | "off";

/**
 * Everything a handler may use, built for each call from the caller's window: its app version
 * (manifest, ACL, tool ids), the user's grants for that app, and the dispatcher's shared stores
 * and services. Nothing here is fixed at dispatcher creation except the shared parts.
 */
export interface AppScope {
  manifest: AppManifest;
  appId: string;
  versionId: string;
  acl: HostApiAcl;
  /** Windows of this app version (the shared store, this app's views). */
  windows: WindowManager;
  events: EventBus;
  /** Publish on the bus and record. */
  emit(userId: string, event: AnnaAppEvent): void;
  clock: Clock;
  logger: Logger;
  services: Partial<HostServices>;
  host: ToolHost | undefined;
  storageBackend: StorageBackend;
  llm: LlmMode;
  /** `bundled:<handle>` (and any alias) → the real tool_id. */
  toolIds: Readonly<Record<string, string>>;
  /** The user's `web_grant` for this app (R152); disabled unless the host grants it. */
  webGrant: WebGrant;
  /** The user's `credentials_grant` for this app (R151); disabled unless the host grants it. */
  credentialsGrant: CredentialsGrant;
  /** This app as `apps.*` lists it. */
  selfApp: InstalledApp;
  /** The user's other installed apps, from the host. */
  apps: InstalledAppsResolver | undefined;
  /** The pinned decks (`apps.deck.*`), per user. */
  deck: DeckStore;
  /** `chat.*` records. */
  chat: ChatStore;
  /** Async tool jobs (their store and the process-local running parts). */
  jobs: ToolJobs;
}

/** The former name, from when one core served one app; now the per-call `AppScope`. */
export type DispatcherCore = AppScope;

export interface CallContext {
  callId: string;
  ns: string;
  method: string;
  /** The caller's window as it was when the call was authenticated. */
  window: WindowRecord;
  signal: AbortSignal | undefined;
  /** The caller's app scope, resolved for this call. */
  core: AppScope;
}

/** One Host API method: its argument schema (checked before the handler) and the handler. */
export interface MethodHandler<A = unknown> {
  args: z.ZodType<A>;
  handle(args: A, ctx: CallContext): Promise<unknown>;
}

export type MethodTable = Record<string, MethodHandler>;
