import type { AsyncLocalStorage } from "node:async_hooks";
import type { ReverseChannel } from "./reverse/channel.js";

/** The invoke a reverse call is made on behalf of (T12): echoed in `context` and `metadata`. */
export interface InvokeBinding {
  readonly invokeId: string;
  readonly tool: string;
  /** Aborts reverse calls made for this invoke (deadline, shutdown). */
  readonly signal?: AbortSignal | undefined;
}

interface BindingStore {
  readonly channel: ReverseChannel | undefined;
  readonly invoke: InvokeBinding | undefined;
}

/**
 * Created on the first invoke rather than at import: spawn → ready (initialize + describe)
 * never pays for node:async_hooks.
 */
let storage: AsyncLocalStorage<BindingStore> | undefined;

function bindingStorage(): AsyncLocalStorage<BindingStore> {
  storage ??= new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<BindingStore>();
  return storage;
}

/** The channel `serve()` opened; clients fall back to it outside any binding. */
let defaultChannel: ReverseChannel | undefined;

export function setDefaultChannel(channel: ReverseChannel | undefined): void {
  defaultChannel = channel;
}

export function currentChannel(): ReverseChannel | undefined {
  return storage?.getStore()?.channel ?? defaultChannel;
}

export function currentInvoke(): InvokeBinding | undefined {
  return storage?.getStore()?.invoke;
}

/** Runs `fn` with `channel` and `invoke` bound for every await inside it. */
export function runBound<T>(
  channel: ReverseChannel | undefined,
  invoke: InvokeBinding | undefined,
  fn: () => T,
): T {
  return bindingStorage().run({ channel, invoke }, fn);
}

function readString(o: unknown, key: string): string | undefined {
  if (o === null || typeof o !== "object") return undefined;
  const value = (o as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * Binds the invoke described by `params` (the `invoke` request's params) for the duration of
 * `fn`, across awaits, as the spec's Node SDK does (`bindInvoke(params, () => …)`, L1061,
 * L3179). Reads `context.invoke_id`, falling back to a top-level `invoke_id` like the real
 * SDK helpers do. Clients created anywhere (not only `ctx.*`) then stamp that id.
 */
export function bindInvoke<T>(params: unknown, fn: () => T): T {
  const context =
    params !== null && typeof params === "object"
      ? (params as Record<string, unknown>).context
      : undefined;
  const invokeId = readString(context, "invoke_id") ?? readString(params, "invoke_id") ?? "";
  const tool = readString(params, "tool") ?? readString(params, "name") ?? "";
  return runBound(currentChannel(), { invokeId, tool }, fn);
}
