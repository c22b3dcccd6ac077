// One OS process of a plugin and the peer that talks to it: spawn, the initialize/describe
// handshake, requests that fail with PROCESS_EXITED (exit code, signal, stderr tail) when the
// process goes away, and the hooks H4 shutdown needs. Restarts, timeouts and state belong to
// PluginProcess, which owns a sequence of these.

import { once } from "node:events";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { InitializeResultSchema, normalizeInitializeResult } from "@anna-ai/app-schema";
import { RpcError, RpcLocalError, RpcPeer } from "@anna-ai/jsonrpc";
import type {
  Disposable,
  DroppedLine,
  FrameMeta,
  JsonRpcMessage,
  Logger,
  RequestOptions,
  Transport,
  TransportHandlers,
} from "@anna-ai/jsonrpc";
import { ChildProcessTransport } from "@anna-ai/jsonrpc/node";
import { hostError } from "./errors.js";
import { readDescribeResult, type DescribedManifest, type ManifestReading } from "./manifest.js";
import type { ShutdownTarget } from "./shutdown.js";
import {
  launchedFileTransport,
  pluginExitStatus,
  spawnPluginProcess,
  sweepGroup,
  type SpawnRequest,
} from "./spawn.js";
import { CappedLineSplitter, type StderrRing } from "./stderr-ring.js";

/** How long the exit handler waits for stdout/stderr to drain: a reply written just before exit still counts. */
export const DRAIN_AFTER_EXIT_MS = 500;
/** stdout closed but no exit yet: how long pending requests wait for the exit code before failing. */
export const EXIT_AFTER_EOF_MS = 1_000;
/** Lines of stderr put into PROCESS_EXITED errors (the full 200 stay available on the process). */
export const ERROR_STDERR_TAIL_LINES = 20;

export const PROTOCOL_VERSION_OFFERED = "2.0";

export interface ClientInfo {
  name: string;
  version: string;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process never started (ENOENT, EACCES, bad cwd). */
  spawnError?: Error;
}

export interface InstanceHooks {
  onStderrLine(line: string): void;
  onFrame(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void;
  onDropped(line: DroppedLine): void;
  /** Called once, after pending requests were failed and the process group swept. */
  onExit(info: ExitInfo): void;
  /** stdout closed and the process did not exit within EXIT_AFTER_EOF_MS. */
  onOutputClosed(): void;
  handleRequest(method: string, params: unknown, signal: AbortSignal): unknown;
  handleNotification(method: string, params: unknown): void;
}

export interface InstanceOptions {
  /** Names the plugin in every message: `plugin "weather"`. */
  label: string;
  spawn: SpawnRequest;
  stderr: StderrRing;
  hooks: InstanceHooks;
  logger: Logger;
  maxLineBytes?: number;
}

export interface HandshakeResult {
  protocolVersion: "1.1" | "2.0";
  pluginCapabilities: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
  /** Why v1.1 was chosen, for traces (H7). */
  fallbackReason?: string;
}

interface PendingEntry {
  reject: (error: unknown) => void;
  what: string;
  timer?: ReturnType<typeof setTimeout>;
}

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.finally(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Hooks the transport's close and dropped-line reports without changing what the peer sees. */
function tapTransport(
  inner: Transport,
  onDropped: (line: DroppedLine) => void,
  onClose: () => void,
): Transport {
  return {
    start(handlers: TransportHandlers): void {
      inner.start({
        onMessage: handlers.onMessage,
        onDropped: (line) => {
          onDropped(line);
          handlers.onDropped?.(line);
        },
        onClose: (reason) => {
          onClose();
          handlers.onClose(reason);
        },
      });
    },
    send: (message) => inner.send(message),
    close: () => inner.close(),
  };
}

export class PluginInstance {
  readonly child: ChildProcessWithoutNullStreams;
  readonly peer: RpcPeer;
  readonly label: string;
  /** Resolves after the exit was fully handled (pending failed, group swept). Never rejects. */
  readonly exited: Promise<ExitInfo>;
  exitInfo: ExitInfo | undefined;
  /** The host decided to stop this process (shutdown, timeout kill, restart): not a crash. */
  hostStopReason: string | undefined;
  handshake: HandshakeResult | undefined;
  manifest: DescribedManifest | undefined;

  private readonly options: InstanceOptions;
  private readonly pending = new Set<PendingEntry>();
  private readonly splitter = new CappedLineSplitter();
  private resolveExited!: (info: ExitInfo) => void;
  private readonly stdoutClosed: Promise<void>;
  private readonly stderrClosed: Promise<void>;
  private exitHandled = false;
  private frameObserver: Disposable | undefined;

  constructor(options: InstanceOptions) {
    this.options = options;
    this.label = options.label;
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.resolveExited = resolve;
    });
    this.child = spawnPluginProcess(options.spawn);
    const child = this.child;
    // A write after the plugin died (EPIPE) must not become an uncaught exception.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", () => {});
    this.stderrClosed = new Promise<void>((resolve) => {
      child.stderr.once("close", resolve);
    });
    child.stderr.on("data", (chunk: Buffer) => this.onStderr(this.splitter.push(chunk)));

    let markStdoutClosed!: () => void;
    this.stdoutClosed = new Promise<void>((resolve) => {
      markStdoutClosed = resolve;
    });
    const ownFiles = launchedFileTransport(child);
    const transport = tapTransport(
      new ChildProcessTransport(child, {
        name: options.label,
        logger: options.logger,
        fileTransport:
          ownFiles === undefined
            ? { resolveIncoming: true }
            : {
                resolveIncoming: true,
                tempDir: ownFiles.dir,
                ...(ownFiles.ownerUid === undefined ? {} : { ownerUid: ownFiles.ownerUid }),
              },
        ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      }),
      (line) => options.hooks.onDropped(line),
      () => {
        markStdoutClosed();
        // A plugin that closes stdout but keeps running can never answer again: report it.
        const timer = setTimeout(() => {
          if (this.exitInfo === undefined && !this.exitHandled) options.hooks.onOutputClosed();
        }, EXIT_AFTER_EOF_MS);
        timer.unref();
      },
    );
    this.peer = new RpcPeer(transport, { name: options.label, logger: options.logger });
    this.peer.onAnyRequest((method, params, request) =>
      options.hooks.handleRequest(method, params, request.signal),
    );
    this.peer.onAnyNotification((method, params) =>
      options.hooks.handleNotification(method, params),
    );

    child.once("exit", (code, signal) => this.onChildExit(pluginExitStatus(child, code, signal)));
    // `on`, not `once`: an unhandled second 'error' (a failed kill) would throw.
    child.on("error", (error) => {
      if (child.pid === undefined)
        this.onChildExit({ code: null, signal: null, spawnError: error });
      else
        options.logger.debug("plugin process error", { plugin: this.label, error: String(error) });
    });
    this.peer.start();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Report frames to `hooks.onFrame` or stop. Off by default: an observer on the peer costs an
   * allocation and a few calls per frame, which nobody needs unless a trace UI is listening.
   */
  observeFrames(on: boolean): void {
    if (on && this.frameObserver === undefined) {
      const hooks = this.options.hooks;
      this.frameObserver = this.peer.observe((direction, message, meta) =>
        hooks.onFrame(direction, message, meta),
      );
    } else if (!on && this.frameObserver !== undefined) {
      this.frameObserver.dispose();
      this.frameObserver = undefined;
    }
  }

  /** Resolves once the OS started the process; rejects with SPAWN_FAILED. */
  async spawned(): Promise<void> {
    if (this.child.pid !== undefined) return;
    try {
      await once(this.child, "spawn");
    } catch (error) {
      throw hostError(
        "SPAWN_FAILED",
        `${this.label} could not be started (${this.options.spawn.command.join(" ")}): ${String(error)}`,
        { command: [...this.options.spawn.command], cwd: this.options.spawn.cwd },
        error,
      );
    }
  }

  /**
   * A request that fails with PROCESS_EXITED (with exit code and stderr tail) if the process
   * dies before answering. `what` names the call in that message ("tool weather").
   */
  request<T>(method: string, params: unknown, options: RequestOptions, what: string): Promise<T> {
    if (this.exitInfo !== undefined) return Promise.reject(this.exitError(what));
    return new Promise<T>((resolve, reject) => {
      const entry: PendingEntry = { reject, what };
      this.pending.add(entry);
      this.peer.request<T>(method, params, options).then(
        (value) => {
          this.pending.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          if (
            error instanceof RpcLocalError &&
            error.code === "CONNECTION_CLOSED" &&
            this.pending.has(entry)
          ) {
            // stdout closed: the exit handler will fail this with the exit code and stderr.
            entry.timer = setTimeout(() => {
              if (this.pending.delete(entry)) {
                reject(
                  hostError(
                    "PROCESS_EXITED",
                    `${this.label} closed its stdout while ${what} was running`,
                    this.exitData(),
                    error,
                  ),
                );
              }
            }, EXIT_AFTER_EOF_MS);
            return;
          }
          this.pending.delete(entry);
          reject(error);
        },
      );
    });
  }

  /** Fail everything in flight now (the host is killing this process). */
  failPending(makeError: (what: string) => RpcError): void {
    const entries = [...this.pending];
    this.pending.clear();
    for (const entry of entries) {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.reject(makeError(entry.what));
    }
  }

  /** H7: offer "2.0" with id 0; an error frame or a timeout means v1.1. */
  async initialize(timeoutMs: number, clientInfo: ClientInfo): Promise<HandshakeResult> {
    let result: unknown;
    try {
      result = await this.request(
        "initialize",
        initializeParams(clientInfo),
        { timeoutMs, id: 0 },
        "initialize",
      );
    } catch (error) {
      if (this.exitInfo !== undefined || this.peer.isClosed) throw error;
      const reason =
        error instanceof RpcError
          ? `initialize answered ${error.code} ${error.message}`
          : `initialize failed: ${error instanceof Error ? error.message : String(error)}`;
      this.handshake = { protocolVersion: "1.1", pluginCapabilities: {}, fallbackReason: reason };
      return this.handshake;
    }
    this.handshake = readInitializeResult(result);
    return this.handshake;
  }

  async describe(timeoutMs: number): Promise<ManifestReading> {
    const raw = await this.request("describe", undefined, { timeoutMs }, "describe");
    const reading = readDescribeResult(raw, this.label);
    this.manifest = reading.manifest;
    return reading;
  }

  exitError(what: string): RpcError {
    const info = this.exitInfo;
    let how: string;
    if (info === undefined) how = "is exiting";
    else if (info.spawnError !== undefined) how = `could not start (${info.spawnError.message})`;
    else if (info.signal !== null) how = `was killed by ${info.signal}`;
    else how = `exited with code ${String(info.code)}`;
    const by =
      this.hostStopReason === undefined ? "" : ` (stopped by the host: ${this.hostStopReason})`;
    const tail = this.options.stderr.lines(1)[0];
    const lastLine =
      tail === undefined || this.hostStopReason !== undefined ? "" : `; stderr: ${tail}`;
    return hostError(
      "PROCESS_EXITED",
      `${this.label} ${how}${by} while ${what} was running${lastLine}`,
      this.exitData(),
    );
  }

  exitData(): Record<string, unknown> {
    return {
      pid: this.child.pid,
      exitCode: this.exitInfo?.code ?? null,
      signal: this.exitInfo?.signal ?? null,
      stderrTail: this.options.stderr.lines(ERROR_STDERR_TAIL_LINES),
      ...(this.hostStopReason === undefined ? {} : { stoppedBy: this.hostStopReason }),
    };
  }

  shutdownTarget(): ShutdownTarget {
    return {
      pgid: this.child.pid,
      exited: this.exited,
      hasExited: () => this.exitInfo !== undefined,
      requestShutdown: (timeoutMs) =>
        this.peer.isClosed
          ? Promise.resolve()
          : this.peer.request("shutdown", {}, { timeoutMs }).catch(() => undefined),
      closeStdin: () => {
        if (!this.child.stdin.destroyed && !this.child.stdin.writableEnded) this.child.stdin.end();
      },
    };
  }

  private onStderr(lines: string[]): void {
    for (const line of lines) {
      this.options.stderr.add(line);
      this.options.hooks.onStderrLine(line);
    }
  }

  private onChildExit(info: ExitInfo): void {
    if (this.exitHandled) return;
    this.exitHandled = true;
    void this.finishExit(info);
  }

  private async finishExit(info: ExitInfo): Promise<void> {
    if (info.spawnError === undefined) {
      // 'exit' can fire before the pipes are drained: a reply or a last stderr line may follow.
      await settlesWithin(Promise.all([this.stdoutClosed, this.stderrClosed]), DRAIN_AFTER_EXIT_MS);
    }
    this.onStderr(this.splitter.end());
    this.exitInfo = info;
    const pid = this.child.pid;
    if (pid !== undefined) sweepGroup(pid);
    // The owner hears of the exit before any caller does: a caller that sends its next request
    // as soon as this one fails must find the process crashed (and restarting), not a `ready`
    // instance that is already gone.
    try {
      this.options.hooks.onExit(info);
    } catch (error) {
      this.options.logger.error("plugin exit handler failed", {
        plugin: this.label,
        error: String(error),
      });
    }
    this.failPending((what) => this.exitError(what));
    try {
      await this.peer.close();
    } catch (error) {
      this.options.logger.debug("peer close failed", { plugin: this.label, error: String(error) });
    }
    this.child.stdin.destroy();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.resolveExited(info);
  }
}

/** `initialize` params exactly as v2 plugins expect them (H7; real-world-plugins.md). */
export function initializeParams(clientInfo: ClientInfo): Record<string, unknown> {
  return {
    protocolVersion: PROTOCOL_VERSION_OFFERED,
    clientInfo: { ...clientInfo },
    client_info: { ...clientInfo },
    capabilities: {
      sampling: {
        modalities: ["text"],
        maxTokensPerCall: 8192,
        maxCallsPerInvoke: 8,
        responseFormat: ["json_object", "json_schema"],
      },
      fileTransport: true,
      storage: {},
      agent: {},
      image: {},
      "image.edit": {},
      upload: {},
      embeddings: {},
    },
  };
}

/**
 * Any result means v2 unless the plugin explicitly answers a 1.x version. Capabilities are the
 * union of `capabilities` and `client_capabilities`; `serverInfo` or `server_info` (H7).
 */
export function readInitializeResult(result: unknown): HandshakeResult {
  const parsed = InitializeResultSchema.safeParse(result);
  // An answer we cannot read is still an answer: v2, with no capabilities claimed.
  if (!parsed.success) return { protocolVersion: "2.0", pluginCapabilities: {} };
  const normalized = normalizeInitializeResult(parsed.data, PROTOCOL_VERSION_OFFERED);
  if (normalized.protocolVersion.startsWith("1")) {
    return {
      protocolVersion: "1.1",
      pluginCapabilities: {},
      fallbackReason: `initialize answered protocolVersion ${normalized.protocolVersion}`,
    };
  }
  return {
    protocolVersion: "2.0",
    pluginCapabilities: normalized.capabilities,
    ...(normalized.serverInfo === undefined ? {} : { serverInfo: normalized.serverInfo }),
  };
}
