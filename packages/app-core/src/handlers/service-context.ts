import type { ServiceContext } from "@anna-ai/executa-host";
import type { CallContext } from "../dispatcher/types.js";

/** How long a host-service call from an app may run before its context deadline passes. */
export const APP_SERVICE_DEADLINE_MS = 180_000;

const NEVER = new AbortController().signal;

/**
 * The ServiceContext a host service sees for an app call: the app is the caller (H14), the
 * call id stands in for the invoke id, `toolId` is `app:<app_id>` so rows and logs never mix
 * with a plugin's.
 */
export function appServiceContext<G extends object>(ctx: CallContext, grant: G): ServiceContext<G> {
  return {
    userId: ctx.window.userId,
    toolId: `app:${ctx.core.appId}`,
    invokeId: ctx.callId,
    pluginName: ctx.core.appId,
    tool: `${ctx.ns}.${ctx.method}`,
    deadlineMs: ctx.core.clock() + APP_SERVICE_DEADLINE_MS,
    signal: ctx.signal ?? NEVER,
    grant,
    app: { appId: ctx.core.appId, appScopeGranted: true },
  };
}
