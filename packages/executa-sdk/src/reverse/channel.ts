// The one path every reverse call takes: gate on negotiation, stamp the invoke (T12), apply the
// family's timeout, and turn whatever goes wrong into the family's typed error.

import { PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors/protocol";
import { RpcError, RpcLocalError } from "@anna-ai/jsonrpc";
import { hostCallError, type HostCallError, type HostFamily } from "../errors.js";
import { currentChannel, currentInvoke, type InvokeBinding } from "../invoke-binding.js";
import type { ProgressType } from "../tool-context.js";
import type * as Catalog from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";

type CatalogModule = typeof Catalog;

let catalogLoading: Promise<CatalogModule> | undefined;

/**
 * The error catalog, loaded the first time a host call fails: it is a dozen modules, and
 * spawn → ready must not pay for them (benchmark target, spawn ≤ bare node + 20 ms).
 */
function errorCatalog(): Promise<CatalogModule> {
  catalogLoading ??= import("@anna-ai/app-schema/errors");
  return catalogLoading;
}

/** The part of an RpcPeer the clients use; a test can hand in anything with this shape. */
export interface HostPeer {
  request<T = unknown>(
    method: string,
    params?: unknown,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<T>;
  notify(method: string, params?: unknown): void;
}

/**
 * A connection to the host as the clients see it. `enabled` is false once the host offered a
 * protocol other than "2.0" in `initialize`; without any `initialize` it stays true
 * (real-world-plugins.md, "initialize").
 */
export interface ReverseChannel {
  readonly peer: HostPeer;
  readonly enabled: boolean;
}

/** Picks a catalog entry once the catalog is loaded. */
export type EntryPick = (catalog: CatalogModule) => CatalogEntry;

/**
 * What a plugin answers locally when reverse calls are off. These follow what the real SDKs
 * raise (real-world-plugins.md): agent goes through the sampling gate, image and upload report
 * NOT_GRANTED. Recorded as D-sdk-1.
 */
const NOT_NEGOTIATED: Record<HostFamily, EntryPick> = {
  sampling: (c) => c.SAMPLING_ERRORS.NOT_NEGOTIATED,
  agent: (c) => c.SAMPLING_ERRORS.NOT_NEGOTIATED,
  storage: (c) => c.STORAGE_ERRORS.NOT_GRANTED,
  files: (c) => c.STORAGE_ERRORS.NOT_GRANTED,
  image: (c) => c.IMAGE_ERRORS.NOT_GRANTED,
  upload: (c) => c.UPLOAD_ERRORS.NOT_GRANTED,
  embeddings: (c) => c.EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
  web: (c) => c.WEB_ERRORS.NOT_NEGOTIATED,
  // No token without a v2 host (R66): the code the host would send for a missing one.
  credentials: (c) => c.CREDENTIALS_ERRORS.NOT_GRANTED,
};

/** Local timeouts use the family's TIMEOUT entry; families without one use the host's. */
const TIMEOUT: Record<HostFamily, EntryPick> = {
  sampling: (c) => c.SAMPLING_ERRORS.TIMEOUT,
  agent: (c) => c.HOST_ERRORS.TIMEOUT,
  storage: (c) => c.HOST_ERRORS.TIMEOUT,
  files: (c) => c.HOST_ERRORS.TIMEOUT,
  image: (c) => c.IMAGE_ERRORS.TIMEOUT,
  upload: (c) => c.UPLOAD_ERRORS.TIMEOUT,
  embeddings: (c) => c.EMBEDDINGS_ERRORS.TIMEOUT,
  web: (c) => c.WEB_ERRORS.TIMEOUT,
  // -32064 is exactly the SDK-local await timeout (R69).
  credentials: (c) => c.CREDENTIALS_ERRORS.TIMEOUT,
};

/** Code used for local failures that have no catalog entry (abort, closed connection). */
const LOCAL_FAILURE_CODE = PROTOCOL_ERRORS.SERVER_ERROR.code;

export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Also send `_clientTimeoutS` so the host can size its own budget (sampling, image, upload). */
  clientTimeout?: boolean;
  /** Use these instead of the async-context binding (the `ctx.*` clients do). */
  channel?: ReverseChannel | undefined;
  invoke?: InvokeBinding | undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The error a family raises locally for a catalog entry. */
export async function localError(
  family: HostFamily,
  method: string,
  pick: EntryPick,
  message?: string,
  cause?: unknown,
): Promise<HostCallError> {
  const entry = pick(await errorCatalog());
  return hostCallError(family, message ?? entry.message, {
    code: entry.code,
    errorCode: entry.errorCode,
    method,
    data: { errorCode: entry.errorCode },
    cause,
  });
}

async function fromWire(
  family: HostFamily,
  method: string,
  error: RpcError,
): Promise<HostCallError> {
  const data = asRecord(error.data);
  const named = error.errorCode ?? data.errorName ?? data.error_name;
  let errorCode: string;
  if (typeof named === "string") errorCode = named;
  else {
    const { findByCode } = await errorCatalog();
    errorCode =
      findByCode(family, error.code)?.errorCode ??
      findByCode("protocol", error.code)?.errorCode ??
      "HOST_ERROR";
  }
  return hostCallError(family, error.message, {
    code: error.code,
    errorCode,
    method,
    data: error.data,
    cause: error,
  });
}

async function fromLocal(
  family: HostFamily,
  method: string,
  error: RpcLocalError,
  timeoutMs: number,
): Promise<HostCallError> {
  switch (error.code) {
    case "TIMEOUT": {
      const entry = TIMEOUT[family](await errorCatalog());
      return hostCallError(family, `${method} timed out after ${timeoutMs} ms`, {
        code: entry.code,
        errorCode: entry.errorCode,
        method,
        data: { errorCode: entry.errorCode, timeoutMs },
        cause: error,
      });
    }
    case "FRAME_TOO_LARGE": {
      const entry = (await errorCatalog()).HOST_ERRORS.FRAME_TOO_LARGE;
      return hostCallError(family, error.message, {
        code: entry.code,
        errorCode: entry.errorCode,
        method,
        cause: error,
      });
    }
    default:
      return hostCallError(family, `${method}: ${error.message}`, {
        code: LOCAL_FAILURE_CODE,
        errorCode: error.code,
        method,
        cause: error,
      });
  }
}

/**
 * Sends one reverse request. Every request carries `context.invoke_id` (when an invoke is
 * bound) and `metadata.executa_invoke_id` + `metadata.tool` (always; "" when unbound), like
 * the real SDKs (real-world-plugins.md). Without a bound invoke `context` is omitted so a host
 * can fall back to its only active invoke (T12).
 */
export async function callHost<T>(
  family: HostFamily,
  method: string,
  params: Record<string, unknown>,
  options: CallOptions,
): Promise<T> {
  const channel = options.channel ?? currentChannel();
  if (channel === undefined) {
    const message = `${method}: no host connection (call serve() first)`;
    throw await localError(family, method, NOT_NEGOTIATED[family], message);
  }
  if (!channel.enabled) throw await localError(family, method, NOT_NEGOTIATED[family]);
  const invoke = options.invoke ?? currentInvoke();
  const invokeId = invoke?.invokeId ?? "";
  const wire: Record<string, unknown> = {
    ...params,
    metadata: {
      ...asRecord(params.metadata),
      executa_invoke_id: invokeId,
      tool: invoke?.tool ?? "",
    },
  };
  if (invokeId !== "") wire.context = { ...asRecord(params.context), invoke_id: invokeId };
  if (options.clientTimeout === true) wire._clientTimeoutS = Math.ceil(options.timeoutMs / 1000);
  const signal = options.signal ?? invoke?.signal;
  try {
    return await channel.peer.request<T>(
      method,
      wire,
      signal ? { timeoutMs: options.timeoutMs, signal } : { timeoutMs: options.timeoutMs },
    );
  } catch (error) {
    if (error instanceof RpcError) throw await fromWire(family, method, error);
    if (error instanceof RpcLocalError) {
      throw await fromLocal(family, method, error, options.timeoutMs);
    }
    throw error;
  }
}

/** Sends a notification stamped like a request (used by progress). Never throws. */
export function notifyHost(
  method: string,
  params: Record<string, unknown>,
  options: { channel?: ReverseChannel | undefined; invoke?: InvokeBinding | undefined } = {},
): boolean {
  const channel = options.channel ?? currentChannel();
  if (channel === undefined || !channel.enabled) return false;
  const invoke = options.invoke ?? currentInvoke();
  const invokeId = invoke?.invokeId ?? "";
  channel.peer.notify(method, {
    ...params,
    context: { ...asRecord(params.context), invoke_id: invokeId },
    metadata: {
      ...asRecord(params.metadata),
      executa_invoke_id: invokeId,
      tool: invoke?.tool ?? "",
    },
  });
  return true;
}

/**
 * Sends `executa/progress` for the bound invoke (inside a handler or `bindInvoke`), or for
 * `options.invokeId`. The host matches it by `context.invoke_id` only and drops it otherwise
 * (pitfall 13). Returns false when nothing could be sent.
 */
export function emitProgress(
  type: ProgressType,
  data: unknown = {},
  options: { invokeId?: string } = {},
): boolean {
  const bound = currentInvoke();
  const invoke =
    options.invokeId === undefined
      ? bound
      : { invokeId: options.invokeId, tool: bound?.tool ?? "" };
  if (invoke === undefined || invoke.invokeId === "") return false;
  return notifyHost("executa/progress", { type, data }, { invoke });
}

// ---- the base class of every client ---------------------------------------------------------

/**
 * How a client finds its host and invoke. Omit both to use the async-context binding
 * (`bindInvoke`, or the handler that is running) and the channel `serve()` opened; the
 * `ctx.*` clients pass them explicitly.
 */
export interface HostClientOptions {
  channel?: ReverseChannel | undefined;
  invoke?: InvokeBinding | undefined;
  /** Overrides the family's default per-call timeout. */
  timeoutMs?: number | undefined;
}

/** Per-call options every client method accepts. */
export interface CallControl {
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Scope of APS data. Plugins get `user` and `tool` (H14); the SDK always sends it. */
export type StorageScope = "tool" | "user" | "app";

export const DEFAULT_SCOPE: StorageScope = "tool";

export abstract class HostClient {
  protected abstract readonly family: HostFamily;
  protected abstract readonly defaultTimeoutMs: number;
  /** Send `_clientTimeoutS` with every request (families whose host budget follows it). */
  protected readonly sendsClientTimeout: boolean = false;

  constructor(protected readonly options: HostClientOptions = {}) {}

  protected call<T>(
    method: string,
    params: Record<string, unknown>,
    control: CallControl = {},
  ): Promise<T> {
    return callHost<T>(this.family, method, params, {
      timeoutMs: control.timeoutMs ?? this.options.timeoutMs ?? this.defaultTimeoutMs,
      signal: control.signal,
      clientTimeout: this.sendsClientTimeout,
      channel: this.options.channel,
      invoke: this.options.invoke,
    });
  }
}

/** Drops undefined members so frames carry only what the caller set. */
export function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) if (value !== undefined) out[key] = value;
  return out;
}
