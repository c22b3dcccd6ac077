import type { HostFamily } from "../errors.js";
import type { InvokeBinding } from "../invoke-binding.js";
import { callHost, type ReverseChannel } from "./channel.js";

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
