// open_app_view / update_app_view / close_app_view (L6684–6760, A37–A43): injected only when at
// least one app activated for the turn declares `ui.views`, and `open_app_view` only opens
// those apps and the views they declare (the prompt's `<ui_views>` block lists the same names).
// Failures the model can reason about come back as `{error: {code}}` with the spec's codes.
import { WindowGeometrySchema } from "@anna-ai/app-schema";
import { z } from "zod";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import { AppViewError, type AppViews } from "./app-views.js";

export const APP_VIEWS_FAMILY = "app_views";
export const APP_VIEW_TITLE_MAX_CHARS = 200;
export const APP_VIEW_TOOL_TIMEOUT_MS = 15_000;
/** JSON characters of an `open_app_view` payload or a runtime_state_patch. */
export const APP_VIEW_PAYLOAD_MAX_CHARS = 64 * 1024;

/** An app activated for this turn, with the views its manifest declares. */
export interface ViewApp {
  appId: string;
  views: readonly { name: string; default?: boolean }[];
}

export interface AppViewToolsOptions {
  views: AppViews;
  /** The turn's activated apps; those without views are ignored. */
  apps: readonly ViewApp[];
}

function boundedJson<T extends z.ZodType>(schema: T, what: string) {
  return schema.refine(
    (value) => JSON.stringify(value ?? null).length <= APP_VIEW_PAYLOAD_MAX_CHARS,
    {
      message: `${what} is over ${APP_VIEW_PAYLOAD_MAX_CHARS} characters of JSON; send a reference (a storage key) instead`,
    },
  );
}

async function viewCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppViewError) {
      throw new PlatformToolError(error.code, error.message, { cause: error });
    }
    throw error;
  }
}

export function appViewTools(options: AppViewToolsOptions): AgentTool[] {
  const apps = options.apps.filter((app) => app.views.length > 0);
  const first = apps[0];
  if (first === undefined) return [];
  const ids = apps.map((app) => app.appId) as [string, ...string[]];
  const open = platformTool({
    name: "open_app_view",
    family: APP_VIEWS_FAMILY,
    timeoutMs: APP_VIEW_TOOL_TIMEOUT_MS,
    description:
      "Open (or focus) a window of an app mentioned in this turn. view: one of the app's <ui_views> (omit for its default); payload: initial data for the window.",
    input: z.object({
      app_id: z.enum(ids),
      view: z.string().min(1).optional(),
      payload: boundedJson(z.unknown(), "payload").optional(),
    }),
    async run(input, ctx) {
      const app = apps.find((a) => a.appId === input.app_id) ?? first;
      if (input.view !== undefined && !app.views.some((v) => v.name === input.view)) {
        throw new PlatformToolError(
          "INVALID_ARGUMENT",
          `${app.appId} has no view ${JSON.stringify(input.view)}; its views are ${app.views.map((v) => v.name).join(", ")}`,
        );
      }
      const opened = await viewCall(() =>
        options.views.open({
          userId: ctx.userId,
          appId: app.appId,
          conversationId: ctx.conversationId,
          ...(input.view === undefined ? {} : { view: input.view }),
          ...(input.payload === undefined ? {} : { payload: input.payload }),
        }),
      );
      return {
        window_uuid: opened.window_uuid,
        status: opened.status,
        view: opened.view,
        entry_payload: opened.entry_payload,
        geometry: opened.geometry,
        reused: opened.reused,
      };
    },
  });
  const update = platformTool({
    name: "update_app_view",
    family: APP_VIEWS_FAMILY,
    timeoutMs: APP_VIEW_TOOL_TIMEOUT_MS,
    description:
      "Push state into an open app window: a new title, geometry, and/or a runtime_state_patch shallow-merged into its state.",
    input: z
      .object({
        window_uuid: z.string().min(1),
        title: z.string().max(APP_VIEW_TITLE_MAX_CHARS).optional(),
        geometry: WindowGeometrySchema.optional(),
        runtime_state_patch: boundedJson(
          z.record(z.string(), z.unknown()),
          "runtime_state_patch",
        ).optional(),
      })
      .refine(
        (v) =>
          v.title !== undefined || v.geometry !== undefined || v.runtime_state_patch !== undefined,
        {
          message: "pass at least one of title, geometry, runtime_state_patch",
        },
      ),
    async run(input, ctx) {
      const window = await viewCall(() =>
        options.views.update({
          userId: ctx.userId,
          windowUuid: input.window_uuid,
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.geometry === undefined ? {} : { geometry: input.geometry }),
          ...(input.runtime_state_patch === undefined
            ? {}
            : { runtimeStatePatch: input.runtime_state_patch }),
        }),
      );
      return {
        window_uuid: window.window_uuid,
        status: window.status,
        title: window.title,
        runtime_state: window.runtime_state,
      };
    },
  });
  const close = platformTool({
    name: "close_app_view",
    family: APP_VIEWS_FAMILY,
    timeoutMs: APP_VIEW_TOOL_TIMEOUT_MS,
    description: "Close an app window. Closing a window that is already closed succeeds.",
    input: z.object({ window_uuid: z.string().min(1), reason: z.string().max(100).optional() }),
    async run(input, ctx) {
      await viewCall(() =>
        options.views.close({
          userId: ctx.userId,
          windowUuid: input.window_uuid,
          ...(input.reason === undefined ? {} : { reason: input.reason }),
        }),
      );
      return { window_uuid: input.window_uuid, status: "closed" };
    },
  });
  return [open, update, close];
}
