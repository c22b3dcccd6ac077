// What a handler gets besides its arguments: the invoke's identity and deadline, credentials,
// a logger, progress, and reverse clients already bound to this invoke. Everything is built
// lazily so an invoke that uses none of it costs one small object.

import type { Logger } from "@anna-ai/jsonrpc";
import type { InvokeBinding } from "./invoke-binding.js";
import type { StderrLogger } from "./logger.js";
import { notifyHost, type HostClientOptions, type ReverseChannel } from "./reverse/channel.js";
import { FilesClient, HostUploadClient, StorageClient } from "./reverse/data-clients.js";
import {
  AgentSessionClient,
  EmbeddingsClient,
  ImageClient,
  SamplingClient,
} from "./reverse/llm-clients.js";
import { CredentialsClient, WebClient } from "./reverse/web-clients.js";

/** `executa/progress` types the host keeps; anything else is coerced to "progress" (T29). */
export type ProgressType = "progress" | "tool_update";

export interface ToolContext {
  /** `context.invoke_id` (or top-level `invoke_id`); "" when the host sent none. */
  readonly invokeId: string;
  readonly tool: string;
  /** `context.plugin_name`, else the manifest name. */
  readonly pluginName: string;
  /** `context.credentials` as sent for this invoke. Never log or persist these. */
  readonly credentials: Readonly<Record<string, string>>;
  /** The credential from the invoke context, falling back to `process.env[name]` (T14). */
  credential(name: string): string | undefined;
  /** Epoch ms; 0 (or less) means no deadline. */
  readonly deadlineMs: number;
  /** Milliseconds until the deadline, never negative; Infinity without one. */
  remainingMs(): number;
  /** Aborted at the deadline, on shutdown, or when the host connection closes. */
  readonly signal: AbortSignal;
  /** JSON lines on stderr, tagged with the tool and invoke, credential values masked. */
  readonly log: Logger;
  /** Sends an `executa/progress` notification for this invoke (best effort, T29). */
  progress(type: ProgressType, data?: unknown): void;
  /** The raw `context` object of the invoke (tokens, extra fields). */
  readonly context: Readonly<Record<string, unknown>>;
  /**
   * What the host offered in `initialize` (`sampling.responseFormat`, `fileTransport`, …);
   * undefined when no `initialize` arrived.
   */
  readonly hostCapabilities: Readonly<Record<string, unknown>> | undefined;
  readonly sampling: SamplingClient;
  readonly storage: StorageClient;
  readonly files: FilesClient;
  readonly agent: AgentSessionClient;
  readonly image: ImageClient;
  readonly upload: HostUploadClient;
  readonly embeddings: EmbeddingsClient;
  /** `web/*`: search and page fetch on the user's behalf (R157). */
  readonly web: WebClient;
  /**
   * `credentials/*`: the user's connected accounts and short-lived tokens (R67–R68). Named
   * `accounts` because `credentials` is the invoke's credential map.
   */
  readonly accounts: CredentialsClient;
}

export interface InvokeContextInit {
  invokeId: string;
  tool: string;
  pluginName: string;
  context: Record<string, unknown>;
  /** `deadline_ms` from the top level of the params, used when the context has none. */
  deadlineFallback?: unknown;
  channel: ReverseChannel;
  logger: StderrLogger;
  /** Already-aborted signal when the runtime is shutting down. */
  closing: boolean;
  hostCapabilities?: Readonly<Record<string, unknown>> | undefined;
}

function readCredentials(context: Record<string, unknown>): Record<string, string> {
  const raw = context.credentials;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) if (typeof value === "string") out[key] = value;
  return out;
}

function readDeadline(raw: unknown): number {
  const value = typeof raw === "string" ? Number(raw) : raw;
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

export class InvokeContext implements ToolContext, InvokeBinding {
  readonly invokeId: string;
  readonly tool: string;
  readonly pluginName: string;
  readonly deadlineMs: number;
  readonly context: Readonly<Record<string, unknown>>;
  readonly hostCapabilities: Readonly<Record<string, unknown>> | undefined;

  private readonly channel: ReverseChannel;
  private readonly baseLogger: StderrLogger;
  private controller: AbortController | undefined;
  private deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  private abortReason: unknown;
  private aborted: boolean;
  private disposed = false;
  private logger: Logger | undefined;
  private clients: Partial<Record<string, unknown>> = {};
  private credentialMap: Readonly<Record<string, string>> | undefined;

  constructor(init: InvokeContextInit) {
    this.invokeId = init.invokeId;
    this.tool = init.tool;
    this.pluginName = init.pluginName;
    this.context = init.context;
    this.hostCapabilities = init.hostCapabilities;
    this.deadlineMs = readDeadline(init.context.deadline_ms ?? init.deadlineFallback);
    this.channel = init.channel;
    this.baseLogger = init.logger;
    this.aborted = init.closing;
    this.abortReason = init.closing ? new Error("plugin is shutting down") : undefined;
  }

  get credentials(): Readonly<Record<string, string>> {
    this.credentialMap ??= Object.freeze(readCredentials(this.context));
    return this.credentialMap;
  }

  /** What reverse clients stamp: the context itself (invokeId, tool, a lazily built signal). */
  get binding(): InvokeBinding {
    return this;
  }

  credential(name: string): string | undefined {
    return this.credentials[name] ?? process.env[name];
  }

  remainingMs(): number {
    if (this.deadlineMs <= 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.deadlineMs - Date.now());
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.aborted) controller.abort(this.abortReason);
      else if (this.deadlineMs > 0 && !this.disposed) {
        const remaining = this.remainingMs();
        if (remaining <= 0) controller.abort(new Error("invoke deadline passed"));
        else {
          this.deadlineTimer = setTimeout(
            () => controller.abort(new Error("invoke deadline passed")),
            remaining,
          );
          this.deadlineTimer.unref();
        }
      }
    }
    return this.controller.signal;
  }

  get log(): Logger {
    this.logger ??= this.baseLogger.child(
      { tool: this.tool, invoke_id: this.invokeId },
      Object.values(this.credentials),
    );
    return this.logger;
  }

  progress(type: ProgressType, data?: unknown): void {
    notifyHost(
      "executa/progress",
      { type, data: data ?? {} },
      { channel: this.channel, invoke: this.binding },
    );
  }

  get sampling(): SamplingClient {
    return this.client("sampling", SamplingClient);
  }

  get storage(): StorageClient {
    return this.client("storage", StorageClient);
  }

  get files(): FilesClient {
    return this.client("files", FilesClient);
  }

  get agent(): AgentSessionClient {
    return this.client("agent", AgentSessionClient);
  }

  get image(): ImageClient {
    return this.client("image", ImageClient);
  }

  get upload(): HostUploadClient {
    return this.client("upload", HostUploadClient);
  }

  get embeddings(): EmbeddingsClient {
    return this.client("embeddings", EmbeddingsClient);
  }

  get web(): WebClient {
    return this.client("web", WebClient);
  }

  get accounts(): CredentialsClient {
    return this.client("accounts", CredentialsClient);
  }

  /** Aborts `signal` (shutdown, closed connection). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  /** Releases the deadline timer once the handler has finished. */
  dispose(): void {
    this.disposed = true;
    if (this.deadlineTimer !== undefined) clearTimeout(this.deadlineTimer);
  }

  private client<T>(key: string, Client: new (options: HostClientOptions) => T): T {
    const existing = this.clients[key];
    if (existing !== undefined) return existing as T;
    const created = new Client({ channel: this.channel, invoke: this.binding });
    this.clients[key] = created;
    return created;
  }
}
