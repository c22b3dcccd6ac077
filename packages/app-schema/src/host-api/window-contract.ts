// `window.*` (U55, R159, App UI Host API L6357–L6389): always granted; hello/ready/report_error
// also pass the ACL. Results as the dispatcher answers them.
import { z } from "zod";
import { WindowGeometrySchema } from "../app/events.js";
import {
  EmptyResultSchema,
  hostMethod,
  JsonObjectSchema,
  NoArgsSchema,
  lazySchema,
} from "./method-contract.js";

/** `window.set_title` (and the REST title patch): at most this many characters. */
export const WINDOW_TITLE_MAX_CHARS = 120;
/** `window.close`'s `reason`. */
export const WINDOW_CLOSE_REASON_MAX_CHARS = 200;

export const WindowSizeSchema = lazySchema(() => z.object({ w: z.number(), h: z.number() }));

/** A view as `window.hello` describes it (`view_meta`, L6363). */
export const ViewMetaSchema = lazySchema(() =>
  z.looseObject({
    name: z.string(),
    title: z.string(),
    default_size: WindowSizeSchema().nullish(),
    min_size: WindowSizeSchema().nullish(),
    max_size: WindowSizeSchema().nullish(),
    resizable: z.boolean().optional(),
    movable: z.boolean().optional(),
    single_instance: z.boolean().optional(),
  }),
);

/** A window as the wire shows it (`hello`, `apps.launch`, the REST windows API). */
export const WindowViewSchema = lazySchema(() =>
  z.looseObject({
    window_uuid: z.string(),
    app_id: z.string(),
    version_id: z.string(),
    view: z.string().optional(),
    status: z.string().optional(),
    title: z.string().nullish(),
    geometry: WindowGeometrySchema,
    entry_payload: z.unknown(),
    runtime_state: JsonObjectSchema(),
    conversation_session_uuid: z.string().nullish(),
    z_index: z.number().optional(),
  }),
);

export const WindowHelloResultSchema = lazySchema(() =>
  WindowViewSchema().extend({
    view_meta: ViewMetaSchema(),
    capabilities: JsonObjectSchema(),
  }),
);

const positiveSize = lazySchema(() => z.number().finite().positive());

export const WINDOW_CONTRACT = {
  "window.hello": hostMethod(
    () => z.looseObject({ client_info: z.unknown().optional() }),
    WindowHelloResultSchema,
  ),
  // R159: ready triggers runtime_state_synced with the hydrated state.
  "window.ready": hostMethod(NoArgsSchema, EmptyResultSchema),
  "window.heartbeat": hostMethod(NoArgsSchema, EmptyResultSchema),
  "window.set_title": hostMethod(
    () => z.looseObject({ title: z.string().min(1).max(WINDOW_TITLE_MAX_CHARS) }),
    EmptyResultSchema,
  ),
  /** The size clamped to the view's min/max. */
  "window.resize": hostMethod(
    () => z.looseObject({ w: positiveSize(), h: positiveSize() }),
    WindowSizeSchema,
  ),
  "window.focus": hostMethod(NoArgsSchema, EmptyResultSchema),
  /** R159 "current or named": a named window must belong to the same user. */
  "window.close": hostMethod(
    () =>
      z.looseObject({
        reason: z.string().max(WINDOW_CLOSE_REASON_MAX_CHARS).optional(),
        window_uuid: z.string().optional(),
      }),
    EmptyResultSchema,
  ),
  "window.open_view": hostMethod(
    () => z.looseObject({ view: z.string().min(1), payload: z.unknown().optional() }),
    () => z.looseObject({ window_uuid: z.string() }),
  ),
  /** `fatal: true` marks the window crashed (U55, Z18). */
  "window.report_error": hostMethod(
    () =>
      z.looseObject({
        message: z.string(),
        stack: z.string().optional(),
        context: z.unknown().optional(),
        fatal: z.boolean().optional(),
      }),
    EmptyResultSchema,
  ),
} as const;
