// What the app tools need from the app runtime: open (or focus) a window of an installed app,
// patch one, close one, always on behalf of the user of the turn. It is the window half of
// app-core's `HostApiDispatcher` (openWindow / patchWindow / closeWindow), which Nexus's runtime
// (packages/nexus/src/runtime/nexus-runtime.ts) serves on the SQL window store;
// `dispatcherAppViews` adapts a dispatcher without this package depending on app-core.
import type { WindowGeometry } from "@anna-ai/app-schema";

/** A window as the model sees it after open or update (app-core's `windowView`). */
export interface AppViewWindow {
  window_uuid: string;
  status: string;
  view?: string;
  title?: string | null;
  entry_payload?: unknown;
  geometry?: unknown;
  runtime_state?: unknown;
}

export interface OpenAppViewRequest {
  userId: string;
  appId: string;
  /** Omitted: the view the manifest marks `default: true`. */
  view?: string;
  payload?: unknown;
  /** The conversation the window belongs to (its `conversation_session_uuid`). */
  conversationId: string;
}

export interface UpdateAppViewRequest {
  userId: string;
  windowUuid: string;
  title?: string;
  geometry?: WindowGeometry;
  runtimeStatePatch?: Record<string, unknown>;
}

export interface CloseAppViewRequest {
  userId: string;
  windowUuid: string;
  reason?: string;
}

export interface AppViews {
  open(request: OpenAppViewRequest): Promise<AppViewWindow & { reused: boolean }>;
  update(request: UpdateAppViewRequest): Promise<AppViewWindow>;
  close(request: CloseAppViewRequest): Promise<void>;
}

/** The failure codes the model can reason about (L6799–6807), plus an unknown window. */
export const APP_VIEW_ERROR_CODES = [
  "app_not_installed",
  "bundle_not_ready",
  "version_not_published",
  "agent_unavailable",
  "quota_exceeded",
  "not_found",
] as const;
export type AppViewErrorCode = (typeof APP_VIEW_ERROR_CODES)[number];

export class AppViewError extends Error {
  readonly code: AppViewErrorCode;

  constructor(code: AppViewErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppViewError";
    this.code = code;
  }
}

/** The window methods of app-core's `HostApiDispatcher`, structurally. */
export interface WindowDispatcher {
  openWindow(
    view: string | undefined,
    options: {
      appId: string;
      userId: string;
      payload?: unknown;
      conversationSessionUuid?: string | null;
      source?: string;
    },
  ): Promise<{ window: Record<string, unknown>; reused: boolean }>;
  patchWindow(
    windowUuid: string,
    patch: {
      title?: string;
      geometry?: WindowGeometry;
      runtime_state_patch?: Record<string, unknown>;
    },
    userId?: string,
  ): Promise<Record<string, unknown>>;
  closeWindow(windowUuid: string, reason?: string, userId?: string): Promise<void>;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function translated(error: unknown, notFound: AppViewErrorCode): unknown {
  const code = codeOf(error);
  if (code === "not_found")
    return new AppViewError(notFound, (error as Error).message, { cause: error });
  if (code === "quota_exceeded" || code === "bundle_not_ready") {
    return new AppViewError(code, (error as Error).message, { cause: error });
  }
  return error;
}

/** `open_app_view` source on the window's `open_view` event. */
export const APP_VIEW_SOURCE = "llm";

export function dispatcherAppViews(dispatcher: WindowDispatcher): AppViews {
  return {
    async open(request) {
      try {
        const opened = await dispatcher.openWindow(request.view, {
          appId: request.appId,
          userId: request.userId,
          conversationSessionUuid: request.conversationId,
          source: APP_VIEW_SOURCE,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        return { ...(opened.window as unknown as AppViewWindow), reused: opened.reused };
      } catch (error) {
        throw translated(error, "app_not_installed");
      }
    },
    async update(request) {
      try {
        const window = await dispatcher.patchWindow(
          request.windowUuid,
          {
            ...(request.title === undefined ? {} : { title: request.title }),
            ...(request.geometry === undefined ? {} : { geometry: request.geometry }),
            ...(request.runtimeStatePatch === undefined
              ? {}
              : { runtime_state_patch: request.runtimeStatePatch }),
          },
          request.userId,
        );
        return window as unknown as AppViewWindow;
      } catch (error) {
        throw translated(error, "not_found");
      }
    },
    async close(request) {
      try {
        await dispatcher.closeWindow(request.windowUuid, request.reason, request.userId);
      } catch (error) {
        // Closing a closed window succeeds (the tool is idempotent, L6757).
        const status = (error as { details?: { status?: unknown } }).details?.status;
        if (codeOf(error) === "not_found" && status === "closed") return;
        throw translated(error, "not_found");
      }
    },
  };
}
