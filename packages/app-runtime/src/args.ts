import { HOST_API_METHOD_SPELLINGS } from "@anna-ai/app-schema";
import { HostApiError, SDK_ERROR_CODES } from "./errors.js";

/** Per-call options, the Reference's `opts?: {timeoutMs}` plus cancellation. */
export interface CallOptions {
  /** Give up after this long with a `timeout` HostApiError (defaults: see call-timeouts.ts). */
  timeoutMs?: number;
  /** Aborting rejects the call with `cancelled`; the host may still finish it. */
  signal?: AbortSignal;
}

/**
 * Positional forms bundles use (real-world-plugins.md, "Apps": `storage.get(key)`), by
 * `ns.method`: the parameter names the positional values fill, in order. A value after the
 * last name, when it is an object, is the call's options. Names come from the Reference's
 * argument lists, and for `apps.*` from the dispatcher's (D-core-25, "apps.* argument
 * names"); methods not listed here take the object form only. SDK aliases (`web.imageSearch`)
 * take their method's forms.
 */
export const POSITIONAL_PARAMS = Object.freeze({
  "window.set_title": ["title"],
  "window.resize": ["w", "h"],
  "window.close": ["reason"],
  "window.open_view": ["view", "payload"],
  "window.report_error": ["message", "stack"],
  "tools.invoke": ["tool_id", "args"],
  "tools.invokeAsync": ["tool_id", "args"],
  "tools.getJob": ["jobId"],
  "tools.cancelJob": ["jobId", "reason"],
  "storage.get": ["key"],
  "storage.set": ["key", "value"],
  "storage.delete": ["key"],
  "storage.list": ["prefix"],
  "files.download_url": ["path"],
  "files.download": ["path"],
  "files.delete": ["path"],
  "files.list": ["prefix"],
  "files.upload_finalize": ["path"],
  "chat.write_message": ["content"],
  "llm.embed": ["input"],
  "image.generate": ["prompt"],
  "upload.confirm": ["r2_key"],
  "web.search": ["query"],
  "web.fetch": ["urls"],
  "web.image_search": ["query"],
  "web.image_fetch": ["url"],
  "credentials.list_accounts": ["provider"],
  "credentials.get_token": ["provider", "account_id"],
  "apps.search": ["query"],
  "apps.get": ["app_ref"],
  "apps.launch": ["app_ref", "view", "payload"],
  "apps.deck.add": ["app_ref", "position"],
  "apps.deck.remove": ["app_ref"],
  "apps.deck.reorder": ["app_ids"],
  "agent.session.history": ["app_session_uuid"],
  "agent.session.delete": ["app_session_uuid"],
  "agent.session.refresh": ["app_session_uuid"],
} as const satisfies Readonly<Record<string, readonly string[]>>);

/** The positional names by method, as types (the SDK's typed overloads are built from them). */
export type PositionalParams = typeof POSITIONAL_PARAMS;

export interface NormalisedCall {
  args: Record<string, unknown>;
  opts: CallOptions;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function optionsFrom(value: unknown): CallOptions {
  return isPlainObject(value) ? (value as CallOptions) : {};
}

/**
 * Turn what a bundle passed to `anna.<ns>.<method>(…)` into the wire `args` object and the call
 * options. Object form: `(args?, opts?)`. Positional form: see `POSITIONAL_PARAMS`.
 * `report_error(err)` also takes an `Error`. Never returns `null` args: the wire wants an object.
 */
export function normaliseArgs(
  ns: string,
  method: string,
  callArgs: readonly unknown[],
): NormalisedCall {
  const first = callArgs[0];
  if (first === undefined || first === null) return { args: {}, opts: optionsFrom(callArgs[1]) };
  if (isPlainObject(first)) return { args: first, opts: optionsFrom(callArgs[1]) };
  if (ns === "window" && method === "report_error" && first instanceof Error) {
    const args: Record<string, unknown> = { message: first.message };
    if (first.stack !== undefined) args["stack"] = first.stack;
    return { args, opts: optionsFrom(callArgs[1]) };
  }
  const canonical = HOST_API_METHOD_SPELLINGS[`${ns}.${method}`] ?? method;
  const names = (POSITIONAL_PARAMS as Readonly<Record<string, readonly string[]>>)[
    `${ns}.${canonical}`
  ];
  if (names === undefined) {
    throw new HostApiError(
      SDK_ERROR_CODES.INVALID_ARG,
      `${ns}.${method} takes an object argument`,
      { ns, method },
    );
  }
  const args: Record<string, unknown> = {};
  names.forEach((name, index) => {
    const value = callArgs[index];
    if (value !== undefined) args[name] = value;
  });
  return { args, opts: optionsFrom(callArgs[names.length]) };
}
