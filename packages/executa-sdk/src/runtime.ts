// The plugin side of the protocol over any transport: answers initialize/describe/invoke/
// health/shutdown, runs tool handlers concurrently with their invoke bound, and owns the
// reverse channel the clients use. `serve()` puts it on stdio; tests put it on a memory pair.

import {
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  RpcError,
  RpcPeer,
  type Logger,
  type Transport,
} from "@anna-ai/jsonrpc";
import type { Manifest, Plugin } from "./define-plugin.js";
import { HostCallError } from "./errors.js";
import { runBound } from "./invoke-binding.js";
import { StderrLogger } from "./logger.js";
import { PluginTransport } from "./plugin-transport.js";
import { ArgumentError, validateArguments } from "./parameters.js";
import type { HostPeer, ReverseChannel } from "./reverse/channel.js";
import { InvokeContext } from "./tool-context.js";

/**
 * Reverse-request ids are random 32-hex strings, as the real SDKs send them: hosts (and the Go
 * SDK's reply matcher) expect strings, and randomness keeps ids unique across restarts.
 * `randomUUID` draws from a cached entropy pool, so this is cheaper than `randomBytes(16)`;
 * node:crypto is loaded on the first reverse call, not at spawn.
 */
let randomUUID: (() => string) | undefined;

export function randomHexId(): string {
  randomUUID ??= process.getBuiltinModule("node:crypto").randomUUID;
  return randomUUID().replaceAll("-", "");
}

/** The only protocol version that turns reverse clients on (H7, real-world-plugins.md). */
export const PROTOCOL_VERSION = "2.0";
/** Answered when the host's `initialize` names no version at all: we then speak v1. */
const LEGACY_PROTOCOL_VERSION = "1.1";

/** Manifest capability strings → the `initialize` capability keys that announce them (T4). */
const CAPABILITY_KEYS: Readonly<Record<string, readonly [string, Record<string, unknown>][]>> = {
  "llm.sample": [["sampling", {}]],
  "llm.agent.auto": [
    ["sampling", {}],
    ["agent", { submodes: ["auto"] }],
  ],
  "aps.kv": [["storage", { kv: true }]],
  "aps.files": [["storage", { files: true }]],
  "llm.image": [["image", {}]],
  "llm.image.edit": [
    ["image", {}],
    ["image.edit", {}],
  ],
  "host.upload": [["upload", {}]],
  // The Reference calls it `embed`, real plugins `embeddings` (R54): announce both.
  "llm.embed": [
    ["embeddings", {}],
    ["embed", {}],
  ],
};

/** The capability object a plugin announces for the manifest's `host_capabilities`. */
export function capabilitiesFor(manifest: Manifest): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const capability of manifest.host_capabilities ?? []) {
    for (const [key, value] of CAPABILITY_KEYS[capability] ?? [])
      out[key] = { ...out[key], ...value };
  }
  return out;
}

export interface PluginRuntimeOptions {
  /** Protocol and SDK diagnostics. Default: JSON lines on stderr. */
  logger?: StderrLogger;
  /** Called after the `shutdown` reply has been written. */
  onShutdown?: () => void;
  /**
   * Send frames larger than this through `__file_transport` (serve(): 512 KiB, H2), unless the
   * host's `initialize` declines it. Unset: always inline (memory pairs in tests).
   */
  fileTransportAboveBytes?: number;
}

export interface PluginRuntime {
  readonly peer: RpcPeer;
  /** What the reverse clients use; `enabled` follows the `initialize` negotiation. */
  readonly channel: ReverseChannel;
  /** The version the host offered in `initialize`; undefined until one arrives. */
  readonly offeredProtocolVersion: string | undefined;
  /** `params.capabilities` of the host's `initialize` (e.g. `sampling.responseFormat`). */
  readonly hostCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** Invokes whose handler is still running. */
  readonly activeInvokes: number;
  start(): void;
  /** Aborts every running handler's signal and closes the connection. */
  close(): Promise<void>;
  /** Resolves once the connection is closed (EOF, close(), or the transport failing). */
  readonly closed: Promise<void>;
}

/** The `invoke` result (T7): `data` on success, `error` on an expected failure. */
interface InvokeResult {
  success: boolean;
  data?: unknown;
  error?: string;
  tool: string;
  duration_ms: number;
}

function isForeignRpcError(value: unknown): value is Error & { code: number; data?: unknown } {
  return (
    value instanceof Error &&
    value.name === "RpcError" &&
    typeof (value as { code?: unknown }).code === "number"
  );
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** A name for logs and `serverInfo`: the manifest name is optional (H16). */
export function pluginLabel(manifest: Manifest): string {
  return (
    manifest.name ?? (typeof manifest.display_name === "string" ? manifest.display_name : "plugin")
  );
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function readString(o: Record<string, unknown>, key: string): string | undefined {
  const value = o[key];
  return typeof value === "string" ? value : undefined;
}

class ToolChannel implements ReverseChannel {
  enabled = true;
  constructor(readonly peer: HostPeer) {}
}

class Runtime implements PluginRuntime {
  readonly peer: RpcPeer;
  readonly channel: ToolChannel;
  offeredProtocolVersion: string | undefined;
  hostCapabilities: Readonly<Record<string, unknown>> | undefined;
  private readonly plugin: Plugin;
  private readonly manifest: Manifest;
  private readonly logger: StderrLogger;
  private readonly onShutdown: (() => void) | undefined;
  private readonly running = new Set<InvokeContext>();
  private readonly transport: PluginTransport;
  private closing = false;

  constructor(plugin: Plugin, transport: Transport, options: PluginRuntimeOptions) {
    this.plugin = plugin;
    this.manifest = plugin.describe();
    this.logger =
      options.logger ?? new StderrLogger({ fields: { plugin: pluginLabel(this.manifest) } });
    this.onShutdown = options.onShutdown;
    this.transport = new PluginTransport(transport, options.fileTransportAboveBytes);
    this.peer = new RpcPeer(this.transport, {
      name: pluginLabel(this.manifest),
      logger: this.logger as Logger,
      nextId: randomHexId,
    });
    this.channel = new ToolChannel(this.peer);
    this.peer.onRequest("initialize", (params) => this.initialize(params));
    this.peer.onRequest("describe", () => this.manifest);
    this.peer.onRequest("invoke", (params) => this.invoke(params));
    this.peer.onRequest("health", () => this.health());
    this.peer.onRequest("shutdown", () => this.shutdown());
    void this.peer.closed.then(() => this.abortAll(new Error("host connection closed")));
  }

  get closed(): Promise<void> {
    return this.peer.closed;
  }

  get activeInvokes(): number {
    return this.running.size;
  }

  start(): void {
    this.peer.start();
  }

  async close(): Promise<void> {
    this.abortAll(new Error("plugin is shutting down"));
    await this.peer.close();
  }

  private abortAll(reason: Error): void {
    this.closing = true;
    for (const ctx of this.running) ctx.abort(reason);
  }

  private initialize(params: unknown): Record<string, unknown> {
    const offered = asRecord(params).protocolVersion;
    this.offeredProtocolVersion = typeof offered === "string" ? offered : undefined;
    const p = asRecord(params);
    // Hosts in the wild send `capabilities` or `client_capabilities` (Z4).
    this.hostCapabilities = asRecord(p.capabilities ?? p.client_capabilities);
    this.transport.fileTransport = this.hostCapabilities.fileTransport !== false;
    // Real v2 plugins compare the string exactly; anything else switches the clients off and
    // is echoed back (real-world-plugins.md, "initialize").
    this.channel.enabled = offered === PROTOCOL_VERSION;
    const capabilities = capabilitiesFor(this.manifest);
    const info = { name: pluginLabel(this.manifest), version: this.manifest.version };
    return {
      protocolVersion: typeof offered === "string" ? offered : LEGACY_PROTOCOL_VERSION,
      // Both spellings appear in the spec (Z4): hosts read one or the other.
      serverInfo: info,
      server_info: info,
      capabilities,
      client_capabilities: capabilities,
    };
  }

  private async health(): Promise<unknown> {
    if (this.plugin.health === undefined) return { status: "ready", message: "", details: {} };
    return this.plugin.health();
  }

  private shutdown(): Record<string, never> {
    // The reply is written when this returns; leave only after that.
    if (this.onShutdown !== undefined) setImmediate(this.onShutdown);
    return {};
  }

  /**
   * Serves one invoke. A handler that returns a plain value is answered synchronously (no
   * promise on the hot path); a promise is awaited. Setup errors throw synchronously and the
   * peer turns them into JSON-RPC errors.
   */
  private invoke(params: unknown): InvokeResult | Promise<InvokeResult> {
    // Date.now is enough for an integer duration_ms, and cheaper than performance.now.
    const started = Date.now();
    const p = asRecord(params);
    const toolName = readString(p, "tool") ?? readString(p, "name") ?? "";
    const tool = this.plugin.tools.get(toolName);
    if (tool === undefined) {
      throw new RpcError(METHOD_NOT_FOUND, `Unknown tool: ${toolName}`, { tool: toolName });
    }
    const rawArgs = p.arguments ?? {};
    if (rawArgs === null || typeof rawArgs !== "object" || Array.isArray(rawArgs)) {
      throw new RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object");
    }
    let args: Record<string, unknown>;
    try {
      args = validateArguments(
        tool.parameters,
        rawArgs as Record<string, unknown>,
        tool.extraArguments,
      );
    } catch (error) {
      if (error instanceof ArgumentError) {
        throw new RpcError(INVALID_PARAMS, error.message, { argument: error.argument });
      }
      throw error;
    }
    const context = asRecord(p.context);
    const ctx = new InvokeContext({
      invokeId: readString(context, "invoke_id") ?? readString(p, "invoke_id") ?? "",
      tool: toolName,
      pluginName: readString(context, "plugin_name") ?? this.manifest.name ?? "",
      context,
      // Real SDK helpers also read it at the top level of params.
      deadlineFallback: p.deadline_ms,
      channel: this.channel,
      logger: this.logger,
      closing: this.closing,
      hostCapabilities: this.hostCapabilities,
    });
    this.running.add(ctx);
    let outcome: unknown;
    try {
      outcome = runBound(this.channel, ctx, () => tool.handler(args, ctx));
    } catch (error) {
      this.finish(ctx);
      return this.failure(error, ctx, started);
    }
    if (isPromiseLike(outcome)) return this.settle(outcome, ctx, started);
    this.finish(ctx);
    return {
      success: true,
      data: outcome ?? null,
      tool: ctx.tool,
      duration_ms: Date.now() - started,
    };
  }

  private async settle(
    outcome: PromiseLike<unknown>,
    ctx: InvokeContext,
    started: number,
  ): Promise<InvokeResult> {
    try {
      const data = await outcome;
      return {
        success: true,
        data: data ?? null,
        tool: ctx.tool,
        duration_ms: Date.now() - started,
      };
    } catch (error) {
      return this.failure(error, ctx, started);
    } finally {
      this.finish(ctx);
    }
  }

  private finish(ctx: InvokeContext): void {
    this.running.delete(ctx);
    ctx.dispose();
  }

  /** A thrown RpcError stays a JSON-RPC error; anything else is an expected failure (T7). */
  private failure(error: unknown, ctx: InvokeContext, started: number): InvokeResult {
    if (error instanceof RpcError) throw error;
    // The same class from another copy of @anna-ai/jsonrpc (the SDK may run bundled).
    if (isForeignRpcError(error))
      throw new RpcError(error.code, error.message, error.data, { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    // A host refusal is routine (grant missing, quota): its code says enough, no stack needed.
    ctx.log.warn(
      "tool failed",
      error instanceof HostCallError
        ? { error: message, code: error.code, errorCode: error.errorCode }
        : { error },
    );
    const failure: InvokeResult = {
      success: false,
      error: message,
      tool: ctx.tool,
      duration_ms: Date.now() - started,
    };
    // Keep the host's code visible to the LLM and to tests (success:false has no code field).
    if (error instanceof HostCallError)
      failure.data = { code: error.code, errorCode: error.errorCode };
    return failure;
  }
}

/**
 * Runs `plugin` over `transport` (a memory pair in tests, stdio under `serve()`). Call
 * `start()` to begin reading.
 */
export function createPluginRuntime(
  plugin: Plugin,
  transport: Transport,
  options: PluginRuntimeOptions = {},
): PluginRuntime {
  return new Runtime(plugin, transport, options);
}
