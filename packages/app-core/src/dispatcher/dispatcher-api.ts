// The dispatcher's public surface, the one the HTTP routes, `anna-app dev`, `mountBundle` and
// the server use. `HostApiDispatcher` serves every user and app (multi-tenant-dispatcher.ts);
// `Dispatcher` is its single-app configuration with that app's fixed defaults (dispatcher.ts).
import type { AnnaAppEvent, WindowGeometry } from "@anna-ai/app-schema";
import type { ChatLog } from "../chat/chat-store.js";
import type { HostApiErrorWire } from "../errors/host-api-error.js";
import type { EventBus } from "../events/event-bus.js";
import type { OpenWindowOptions, WindowManager } from "../windows/window-manager.js";
import type { WindowStatus } from "../windows/window-status.js";

export type CallResult = { ok: true; result: unknown } | { ok: false; error: HostApiErrorWire };

export interface CallOptions {
  /** The envelope's `window_uuid`; must match the token's window. */
  windowUuid?: string;
  /** The app the route serves (e.g. from its URL); a token of another app is refused. */
  appId?: string;
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
  /** Raises the window to the front after the other changes (REST `PATCH` with `focus`). */
  focus?: boolean;
}

/** Which app's window to open: the dispatcher's default app when omitted. */
export interface OpenWindowRequest extends Partial<OpenWindowOptions> {
  appId?: string;
  /** Default: the version the AppResolver picks for the user. */
  versionId?: string;
}

export interface HostApiDispatcher {
  /** Runs one Host API call through the pipeline. Never rejects. */
  call(
    token: string | undefined,
    ns: string,
    method: string,
    args?: unknown,
    options?: CallOptions,
  ): Promise<CallResult>;
  /** Opens (or, for single-instance views, re-opens) a window and mints its token. */
  openWindow(view?: string, options?: OpenWindowRequest): Promise<OpenedWindowView>;
  /**
   * A fresh token for a live window of `userId` (hydrate, or the page's refresh path). With
   * `appId`, a window of another app is `not_found`.
   */
  mintToken(
    windowUuid: string,
    userId?: string,
    appId?: string,
  ): Promise<{ token: string; expires_in: number }>;
  getWindow(windowUuid: string, appId?: string): Promise<Record<string, unknown> | undefined>;
  listWindows(
    userId?: string,
    conversationSessionUuid?: string | null,
    appId?: string,
  ): Promise<Record<string, unknown>[]>;
  /** The REST `PATCH /windows/{wid}` (U27). */
  patchWindow(
    windowUuid: string,
    patch: WindowPatch,
    userId?: string,
    appId?: string,
  ): Promise<Record<string, unknown>>;
  closeWindow(windowUuid: string, reason?: string, userId?: string, appId?: string): Promise<void>;
  /** Closes idle windows of `userIds`, default the users this process has seen (U33). */
  reapIdle(userIds?: Iterable<string>): Promise<string[]>;
  /** Cancels the tool jobs this process runs; windows and events stay readable. */
  close(): void;
  /** Publishes an event (dev panel simulations, server-side emitters) and records it. */
  emit(userId: string, event: AnnaAppEvent): void;
  readonly events: EventBus;
}

/** The single-app dispatcher (`createDispatcher`): one app, a default user, its chat log. */
export interface Dispatcher extends HostApiDispatcher {
  readonly appId: string;
  readonly userId: string;
  readonly chat: ChatLog;
  readonly windows: WindowManager;
}
