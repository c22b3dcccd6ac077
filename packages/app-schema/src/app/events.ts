import { z } from "zod";
import { fromZodIssues } from "./zod-issues.js";

/**
 * `AnnaAppEvent`, the window event stream (SSE `event: data_model/AnnaAppEvent`, L6035–L6069,
 * R161). Clients parse liberally: a kind they do not know is kept as `UnknownAnnaAppEvent` so a
 * client can drop it — never throw on it (forward compatibility).
 */

export const ANNA_APP_EVENT_TYPE = "data_model/AnnaAppEvent";

/** `{x, y, w, h, monitor_w, monitor_h, dock_pinned, dock_side, snapped}`; all optional on read. */
export const WindowGeometrySchema = z.looseObject({
  x: z.number().nullish(),
  y: z.number().nullish(),
  w: z.number().nullish(),
  h: z.number().nullish(),
  monitor_w: z.number().nullish(),
  monitor_h: z.number().nullish(),
  dock_pinned: z.boolean().nullish(),
  dock_side: z.string().nullish(),
  snapped: z.string().nullish(),
});
export type WindowGeometry = z.infer<typeof WindowGeometrySchema>;

const Json = z.record(z.string(), z.unknown());

/** Payload schemas per kind (R161; the guide's table where the Reference gives none). */
export const ANNA_APP_EVENT_PAYLOADS = {
  ping: z.looseObject({}),
  open_view: z.looseObject({
    window_uuid: z.string(),
    app_id: z.union([z.string(), z.number()]).nullish(),
    version_id: z.union([z.string(), z.number()]).nullish(),
    view: z.string().nullish(),
    entry_payload: z.unknown().optional(),
    geometry: WindowGeometrySchema.nullish(),
    runtime_state: Json.nullish(),
    source: z.string().nullish(),
  }),
  close_view: z.looseObject({ window_uuid: z.string(), reason: z.string().nullish() }),
  window_focus_changed: z.looseObject({ window_uuid: z.string(), z_index: z.number().nullish() }),
  geometry_changed: z.looseObject({ geometry: WindowGeometrySchema }),
  title_changed: z.looseObject({ title: z.string() }),
  status_changed: z.looseObject({ status: z.string() }),
  runtime_state_synced: z.looseObject({ runtime_state: Json }),
  artifact_appended: z.looseObject({
    artifact_id: z.string(),
    kind: z.string().nullish(),
    summary: z.string().nullish(),
    payload: z.unknown().optional(),
    payload_ref: z.unknown().optional(),
    window_uuid: z.string().nullish(),
    ts: z.number().nullish(),
  }),
  chat_message_from_app: z.looseObject({
    window_uuid: z.string().nullish(),
    role: z.string().nullish(),
    content: z.unknown(),
  }),
  "rpc.stream": z.looseObject({
    stream_id: z.string(),
    window_uuid: z.string().nullish(),
    seq: z.int().nonnegative(),
    payload: z.unknown().optional(),
    done: z.boolean().nullish(),
  }),
  anna_app_tools_changed: z.looseObject({}),
  executa_reconcile_result: z.looseObject({}),
  executa_readiness: z.looseObject({}),
  /** `tools.invokeAsync` progress pushes; never carry the result (U59). */
  tool_job: z.looseObject({
    job_id: z.string(),
    tool_id: z.string().nullish(),
    state: z.string(),
    seq: z.number().nullish(),
    event: z.unknown().optional(),
    terminal: z.boolean().nullish(),
  }),
  /** `apps.deck.*` changes (R158). */
  deck_changed: z.looseObject({}),
} as const;

export type AnnaAppEventKind = keyof typeof ANNA_APP_EVENT_PAYLOADS;
export const ANNA_APP_EVENT_KINDS = Object.freeze(
  Object.keys(ANNA_APP_EVENT_PAYLOADS) as AnnaAppEventKind[],
);

export function isAnnaAppEventKind(value: string): value is AnnaAppEventKind {
  return Object.hasOwn(ANNA_APP_EVENT_PAYLOADS, value);
}

const envelope = {
  /** `data_model/AnnaAppEvent`; the SSE `event:` line spells it with a dot (Z13), so any string. */
  type: z.string().optional(),
  window_uuid: z.string().nullish(),
  app_id: z.union([z.string(), z.number()]),
  version_id: z.union([z.string(), z.number()]).nullish(),
  conversation_session_uuid: z.string().nullish(),
  /** The originating client, so a tab can suppress its own echo. */
  by_client_id: z.string().nullish(),
  /** Unix seconds in the spec's example; kept as sent. */
  ts: z.number(),
};

function variant<K extends AnnaAppEventKind>(kind: K) {
  return z.looseObject({
    ...envelope,
    kind: z.literal(kind),
    payload: ANNA_APP_EVENT_PAYLOADS[kind],
  });
}

export const KnownAnnaAppEventSchema = z.discriminatedUnion("kind", [
  variant("ping"),
  variant("open_view"),
  variant("close_view"),
  variant("window_focus_changed"),
  variant("geometry_changed"),
  variant("title_changed"),
  variant("status_changed"),
  variant("runtime_state_synced"),
  variant("artifact_appended"),
  variant("chat_message_from_app"),
  variant("rpc.stream"),
  variant("anna_app_tools_changed"),
  variant("executa_reconcile_result"),
  variant("executa_readiness"),
  variant("tool_job"),
  variant("deck_changed"),
]);
export type KnownAnnaAppEvent = z.infer<typeof KnownAnnaAppEventSchema>;

/** A kind this build does not know: the envelope, the kind, the payload untouched. */
export const UnknownAnnaAppEventSchema = z.looseObject({
  ...envelope,
  kind: z
    .string()
    .refine((kind) => !isAnnaAppEventKind(kind), "a known kind")
    .meta({ not: { enum: Object.keys(ANNA_APP_EVENT_PAYLOADS) } }),
  payload: z.unknown().optional(),
});
export type UnknownAnnaAppEvent = z.infer<typeof UnknownAnnaAppEventSchema>;

export const AnnaAppEventSchema = z.union([KnownAnnaAppEventSchema, UnknownAnnaAppEventSchema]);
export type AnnaAppEvent = KnownAnnaAppEvent | UnknownAnnaAppEvent;

export type AnnaAppEventParse =
  | { readonly ok: true; readonly known: true; readonly event: KnownAnnaAppEvent }
  | { readonly ok: true; readonly known: false; readonly event: UnknownAnnaAppEvent }
  | { readonly ok: false; readonly reason: string };

/**
 * Never throws. An unknown kind is `{ok: true, known: false}` (drop it); a malformed frame, or a
 * known kind with a bad payload, is `{ok: false, reason}` (log and drop it).
 */
export function parseAnnaAppEvent(raw: unknown): AnnaAppEventParse {
  const kind =
    typeof raw === "object" && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
  if (typeof kind !== "string") return { ok: false, reason: "event has no string kind" };
  if (isAnnaAppEventKind(kind)) {
    const parsed = KnownAnnaAppEventSchema.safeParse(raw, { reportInput: true });
    if (parsed.success) return { ok: true, known: true, event: parsed.data };
    return { ok: false, reason: `${kind} event: ${reasonOf(parsed.error.issues)}` };
  }
  const parsed = UnknownAnnaAppEventSchema.safeParse(raw, { reportInput: true });
  if (parsed.success) return { ok: true, known: false, event: parsed.data };
  return { ok: false, reason: `${kind} event: ${reasonOf(parsed.error.issues)}` };
}

function reasonOf(issues: readonly z.core.$ZodIssue[]): string {
  return fromZodIssues(issues)
    .map((issue) => `${issue.pointer || "/"} ${issue.message}`)
    .join("; ");
}
