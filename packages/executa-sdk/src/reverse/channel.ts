// The one path every reverse call takes: gate on negotiation, stamp the invoke (T12), apply the
// family's timeout, and turn whatever goes wrong into the family's typed error.

import {
  EMBEDDINGS_ERRORS,
  HOST_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  findByCode,
  type CatalogEntry,
} from "@anna-ai/app-schema/errors";
import { RpcError, RpcLocalError } from "@anna-ai/jsonrpc";
import { hostCallError, type HostCallError, type HostFamily } from "../errors.js";
import { currentChannel, currentInvoke, type InvokeBinding } from "../invoke-binding.js";

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

/**
 * What a plugin answers locally when reverse calls are off. These follow what the real SDKs
 * raise (real-world-plugins.md): agent goes through the sampling gate, image and upload report
 * NOT_GRANTED. Recorded in docs/decisions.md ("executa-sdk: local not-negotiated codes").
 */
const NOT_NEGOTIATED: Record<HostFamily, CatalogEntry> = {
  sampling: SAMPLING_ERRORS.NOT_NEGOTIATED,
  agent: SAMPLING_ERRORS.NOT_NEGOTIATED,
  storage: STORAGE_ERRORS.NOT_GRANTED,
  files: STORAGE_ERRORS.NOT_GRANTED,
  image: IMAGE_ERRORS.NOT_GRANTED,
  upload: UPLOAD_ERRORS.NOT_GRANTED,
  embeddings: EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
};

/** Local timeouts use the family's TIMEOUT entry; families without one use the host's. */
const TIMEOUT: Record<HostFamily, CatalogEntry> = {
  sampling: SAMPLING_ERRORS.TIMEOUT,
  agent: HOST_ERRORS.TIMEOUT,
  storage: HOST_ERRORS.TIMEOUT,
  files: HOST_ERRORS.TIMEOUT,
  image: IMAGE_ERRORS.TIMEOUT,
  upload: UPLOAD_ERRORS.TIMEOUT,
  embeddings: EMBEDDINGS_ERRORS.TIMEOUT,
};

/** Code used for local failures that have no catalog entry (abort, closed connection). */
const LOCAL_FAILURE_CODE = -32000;

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

/** The error a family raises for a catalog entry, locally. */
export function localError(
  family: HostFamily,
  method: string,
  entry: CatalogEntry,
  message?: string,
  cause?: unknown,
): HostCallError {
  return hostCallError(family, message ?? entry.message, {
    code: entry.code,
    errorCode: entry.errorCode,
    method,
    data: { errorCode: entry.errorCode },
    cause,
  });
}

function fromWire(family: HostFamily, method: string, error: RpcError): HostCallError {
  const data = asRecord(error.data);
  const named = error.errorCode ?? data.errorName ?? data.error_name;
  const errorCode =
    typeof named === "string"
      ? named
      : (findByCode(family, error.code)?.errorCode ??
        findByCode("protocol", error.code)?.errorCode ??
        "HOST_ERROR");
  return hostCallError(family, error.message, {
    code: error.code,
    errorCode,
    method,
    data: error.data,
    cause: error,
  });
}

function fromLocal(
  family: HostFamily,
  method: string,
  error: RpcLocalError,
  timeoutMs: number,
): HostCallError {
  switch (error.code) {
    case "TIMEOUT": {
      const entry = TIMEOUT[family];
      return hostCallError(family, `${method} timed out after ${timeoutMs} ms`, {
        code: entry.code,
        errorCode: entry.errorCode,
        method,
        data: { errorCode: entry.errorCode, timeoutMs },
        cause: error,
      });
    }
    case "FRAME_TOO_LARGE":
      return hostCallError(family, error.message, {
        code: HOST_ERRORS.FRAME_TOO_LARGE.code,
        errorCode: HOST_ERRORS.FRAME_TOO_LARGE.errorCode,
        method,
        cause: error,
      });
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
    throw localError(
      family,
      method,
      NOT_NEGOTIATED[family],
      `${method}: no host connection (call serve() first)`,
    );
  }
  if (!channel.enabled) throw localError(family, method, NOT_NEGOTIATED[family]);
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
    if (error instanceof RpcError) throw fromWire(family, method, error);
    if (error instanceof RpcLocalError) throw fromLocal(family, method, error, options.timeoutMs);
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
