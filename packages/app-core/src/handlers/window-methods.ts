// `window.*` (U55, R159): always granted; hello/ready/report_error also pass the ACL.
import { HostApiError } from "../errors/host-api-error.js";
import type { MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { windowView } from "./window-view.js";

export function windowMethods(): MethodTable {
  return {
    "window.hello": contractMethod("window.hello", async (_args, { window, core }) => {
      const view = core.windows.viewOf(window.view);
      return {
        ...windowView(window),
        view_meta: {
          name: window.view,
          title: view?.title ?? window.view,
          min_size: view?.min_size ?? null,
          max_size: view?.max_size ?? null,
          resizable: view?.resizable ?? true,
          movable: view?.movable ?? true,
          single_instance: view?.single_instance ?? false,
        },
        capabilities: capabilitiesOf(core.acl.hostApi),
      };
    }),
    "window.ready": contractMethod("window.ready", async (_args, { window, core }) => {
      // R159: ready triggers runtime_state_synced with the hydrated state.
      core.windows.syncState(window);
      return {};
    }),
    "window.heartbeat": contractMethod("window.heartbeat", async () => ({})),
    "window.set_title": contractMethod("window.set_title", async ({ title }, { window, core }) => {
      await core.windows.setTitle(window.windowUuid, title);
      return {};
    }),
    "window.resize": contractMethod("window.resize", async ({ w, h }, ctx) =>
      ctx.core.windows.resize(ctx.window.windowUuid, w, h),
    ),
    "window.focus": contractMethod("window.focus", async (_args, { window, core }) => {
      await core.windows.focus(window.windowUuid);
      return {};
    }),
    "window.close": contractMethod(
      "window.close",
      async ({ reason, window_uuid }, { window, core }) => {
        // R159 "current or named": a named window must belong to the same user and app.
        const target = window_uuid ?? window.windowUuid;
        const found = await core.windows.requireLive(target);
        if (found.userId !== window.userId) {
          throw new HostApiError("not_found", `no window ${target}`, { window_uuid: target });
        }
        await core.windows.close(target, reason);
        return {};
      },
    ),
    "window.open_view": contractMethod(
      "window.open_view",
      async ({ view, payload }, { window, core }) => {
        const opened = await core.windows.open({
          userId: window.userId,
          view,
          payload,
          conversationSessionUuid: window.conversationSessionUuid,
          source: "window.open_view",
        });
        return { window_uuid: opened.window.windowUuid };
      },
    ),
    "window.report_error": contractMethod(
      "window.report_error",
      async ({ message, stack, fatal }, { window, core }) => {
        core.logger.error("app window reported an error", {
          windowUuid: window.windowUuid,
          appId: window.appId,
          message,
          ...(stack === undefined ? {} : { stack }),
        });
        // "logged server-side as crashed if fatal" (U55): the fatal flag is ours (Z18).
        if (fatal === true && window.status === "active") {
          await core.windows.setStatus(window.windowUuid, "crashed");
        }
        return {};
      },
    ),
  };
}

/** The namespaces and methods this window may call, for `hello` (`capabilities`, L6364). */
function capabilitiesOf(hostApi: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { window: ["*"] };
  for (const [ns, grant] of Object.entries(hostApi)) {
    if (grant !== null && grant !== undefined) out[ns] = grant;
  }
  return out;
}
