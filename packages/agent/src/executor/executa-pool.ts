// The executor's process pool: one warm sandboxed process per (user, tool_id) (H11), evicted
// after it sat idle, at most `maxProcesses` at once (the least recently used idle one makes
// room). Reverse RPCs go to the services given here through the host's ReverseRpcRouter, and
// credentials come per invoke (H10), never through the environment.

import {
  ExecutaHost,
  type ExecutaHostOptions,
  ReverseRpcRouter,
  type ReverseRpcRouterOptions,
  type DescribedManifest,
  type GrantPolicy,
  type HostServices,
  type InvokeOutcome,
  type LaunchSpec,
  type PluginProcessOptions,
  type RestartPolicy,
  type TokenIssuer,
} from "@anna-ai/executa-host";
import type { AgentTool } from "../turns/types.js";
import { executaTools } from "./executa-tools.js";
import { Sandbox } from "./sandbox.js";
import type { SandboxOptions } from "./sandbox-options.js";

export const DEFAULT_POOL_MAX_PROCESSES = 32;
export const DEFAULT_POOL_IDLE_MS = 10 * 60_000;

/** An installed executa as the pool runs it. */
export interface PoolExecuta {
  spec: LaunchSpec;
  /** Trusted plugins may run unsandboxed under mode "none"; untrusted ones need the opt-out. */
  trusted: boolean;
  /** The manifest from install time; without it `toolsOf` asks the plugin (`describe`). */
  manifest?: DescribedManifest;
}

export interface ExecutaPoolOptions {
  sandbox: SandboxOptions | Sandbox;
  /** The reverse-RPC families (sampling, storage, …), served as the host's router serves them. */
  services?: Partial<HostServices>;
  /** Required with `services`: which families each (user, tool) may use. */
  grants?: GrantPolicy;
  /** Mints the per-invoke tokens (H15). */
  tokens?: TokenIssuer;
  /** Per-invoke credentials (H10) from the user's connected accounts. */
  credentials?: (
    userId: string,
    toolId: string,
  ) => Promise<Readonly<Record<string, string>> | undefined>;
  /** Which credential names unlock which OAuth provider for `credentials/*` (the router's option). */
  credentialAliases?: ReverseRpcRouterOptions["credentialAliases"];
  /** Non-secret variables every plugin gets (the server's own environment is never passed). */
  env?: Readonly<Record<string, string>>;
  maxProcesses?: number;
  idleMs?: number;
  timeouts?: PluginProcessOptions["timeouts"];
  restart?: Partial<RestartPolicy>;
  logger?: ExecutaHostOptions["logger"];
}

export interface PoolInvokeOptions {
  signal?: AbortSignal;
  /** Overrides the tool's declared timeout. */
  timeoutMs?: number;
  app?: { appId: string; appScopeGranted: boolean };
  /** Run it in this pool, past the placement (the owner serving another node's request). */
  here?: boolean;
}

/**
 * Where an invoke runs when several servers share the users (H11 across nodes): the placement
 * answers the outcome of running it on the node that holds the (user, tool) process, or
 * undefined to run it in this pool.
 */
export interface InvokePlacement {
  route(
    userId: string,
    executa: PoolExecuta,
    tool: string,
    args: Record<string, unknown> | undefined,
    options: PoolInvokeOptions,
  ): Promise<InvokeOutcome | undefined>;
}

export class PoolFullError extends Error {
  readonly code = "POOL_FULL";
  constructor(message: string) {
    super(message);
    this.name = "PoolFullError";
  }
}

interface Entry {
  userId: string;
  toolId: string;
  /** What the process was started from: a new install (other dir or command) replaces it. */
  fingerprint: string;
  inFlight: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

function keyOf(userId: string, toolId: string): string {
  return JSON.stringify([userId, toolId]);
}

function fingerprintOf(spec: LaunchSpec): string {
  return JSON.stringify([spec.dir, spec.cwd, spec.command]);
}

export class ExecutaPool {
  readonly sandbox: Sandbox;
  private readonly options: ExecutaPoolOptions;
  private readonly host: ExecutaHost;
  /** In least-recently-used-first order: a use moves its entry to the end. */
  private readonly entries = new Map<string, Entry>();
  private readonly maxProcesses: number;
  private readonly idleMs: number;
  private closed = false;
  private placement: InvokePlacement | undefined;

  constructor(options: ExecutaPoolOptions) {
    this.options = options;
    this.sandbox =
      options.sandbox instanceof Sandbox ? options.sandbox : new Sandbox(options.sandbox);
    this.maxProcesses = options.maxProcesses ?? DEFAULT_POOL_MAX_PROCESSES;
    this.idleMs = options.idleMs ?? DEFAULT_POOL_IDLE_MS;
    if (!Number.isInteger(this.maxProcesses) || this.maxProcesses < 1) {
      throw new Error(
        `maxProcesses is ${this.maxProcesses}; expected a whole number of at least 1`,
      );
    }
    if (options.services !== undefined && options.grants === undefined) {
      throw new Error(
        "ExecutaPool: `services` needs `grants` (which families each user and tool may use)",
      );
    }
    const router =
      options.services === undefined
        ? undefined
        : new ReverseRpcRouter({
            services: options.services,
            grants: options.grants!,
            ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
            ...(options.credentialAliases === undefined
              ? {}
              : { credentialAliases: options.credentialAliases }),
            ...(options.logger === undefined ? {} : { logger: options.logger }),
          });
    this.host = new ExecutaHost({
      ...(router === undefined ? {} : { router }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
      ...(options.restart === undefined ? {} : { restart: options.restart }),
      // Under "none" the host's own supervisor still keeps plugins from outliving it.
      supervisor: "auto",
    });
  }

  /** How many processes the pool holds (warm or starting). */
  get size(): number {
    return this.entries.size;
  }

  /** How many processes the pool holds at most (its bound; `size` counts against it). */
  get capacity(): number {
    return this.maxProcesses;
  }

  /** Sends invokes through `placement` from now on (set once, before serving). */
  place(placement: InvokePlacement): void {
    this.placement = placement;
  }

  /** Whether the pool holds a process for (user, tool), warm or starting. */
  holds(userId: string, toolId: string): boolean {
    return this.entries.has(keyOf(userId, toolId));
  }

  /** The pid the host holds for (user, tool): bubblewrap's under the sandbox. */
  pidOf(userId: string, toolId: string): number | undefined {
    return this.host.get(userId, toolId)?.pid;
  }

  async invoke(
    userId: string,
    executa: PoolExecuta,
    tool: string,
    args: Record<string, unknown> | undefined,
    options: PoolInvokeOptions = {},
  ): Promise<InvokeOutcome> {
    if (this.placement !== undefined && options.here !== true) {
      const elsewhere = await this.placement.route(userId, executa, tool, args, options);
      if (elsewhere !== undefined) return elsewhere;
    }
    const entry = await this.acquire(userId, executa);
    try {
      const credentials = await this.options.credentials?.(userId, executa.spec.toolId);
      return await this.host.invoke(userId, entry.toolId, tool, args, {
        ...(credentials === undefined ? {} : { credentials }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.app === undefined ? {} : { app: options.app }),
      });
    } finally {
      this.release(entry);
    }
  }

  /** The executa's tools for this user's turns; describes the plugin when no manifest is given. */
  toolsOf(userId: string, executa: PoolExecuta): Promise<AgentTool[]> {
    return executaTools(this, userId, executa);
  }

  async describe(
    userId: string,
    executa: PoolExecuta,
    signal?: AbortSignal,
  ): Promise<DescribedManifest> {
    const entry = await this.acquire(userId, executa);
    try {
      return await this.host.describe(userId, entry.toolId, signal);
    } finally {
      this.release(entry);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.entries.values()) clearTimeout(entry.idleTimer);
    this.entries.clear();
    await this.host.close();
  }

  private async acquire(userId: string, executa: PoolExecuta): Promise<Entry> {
    if (this.closed) throw new Error("the executa pool is closed");
    const { spec } = executa;
    const key = keyOf(userId, spec.toolId);
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.fingerprint !== fingerprintOf(spec) && entry.inFlight === 0) {
      await this.evict(key, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      this.sandbox.assertRunnable(`plugin "${spec.toolId}" for user "${userId}"`, executa.trusted);
      // The check and the register below run without an await between them, so concurrent
      // first calls can never push the pool past its bound.
      while (this.entries.size >= this.maxProcesses && !this.entries.has(key)) {
        await this.evictLeastRecentlyUsed(spec.toolId);
      }
      entry = this.entries.get(key) ?? this.register(userId, executa, key);
    }
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    entry.inFlight++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private register(userId: string, executa: PoolExecuta, key: string): Entry {
    const { spec } = executa;
    const launcher = this.sandbox.pluginLauncher(userId, spec.toolId, spec.dir);
    this.host.register(spec, {
      userId,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", ...this.options.env },
      ...(launcher === undefined ? {} : { launcher }),
    });
    const entry: Entry = {
      userId,
      toolId: spec.toolId,
      fingerprint: fingerprintOf(spec),
      inFlight: 0,
      idleTimer: undefined,
    };
    this.entries.set(key, entry);
    return entry;
  }

  private release(entry: Entry): void {
    entry.inFlight--;
    if (entry.inFlight > 0 || this.closed) return;
    const key = keyOf(entry.userId, entry.toolId);
    entry.idleTimer = setTimeout(() => {
      if (this.entries.get(key) !== entry || entry.inFlight > 0) return;
      this.evict(key, entry).catch((error: unknown) => {
        this.options.logger?.error("idle plugin did not shut down cleanly", {
          toolId: entry.toolId,
          error: String(error),
        });
      });
    }, this.idleMs);
    entry.idleTimer.unref();
  }

  /** Shuts down the least recently used idle process to make room for `toolId`. */
  private async evictLeastRecentlyUsed(toolId: string): Promise<void> {
    const idle = [...this.entries].find(([, entry]) => entry.inFlight === 0);
    if (idle === undefined) {
      throw new PoolFullError(
        `cannot start plugin "${toolId}": all ${this.maxProcesses} plugin processes are busy; ` +
          "retry when a call finishes, or raise the pool's maxProcesses",
      );
    }
    await this.evict(idle[0], idle[1]);
  }

  private async evict(key: string, entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    this.entries.delete(key);
    await this.host.unregister(entry.userId, entry.toolId);
  }
}
