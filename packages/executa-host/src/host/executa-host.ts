// The pool: one PluginProcess per (user, tool_id) (H11), started lazily on first use, all shut
// down together. Registration is synchronous, so concurrent first calls find the same process and
// share its single start.

import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import type { LaunchSpec } from "../launch/types.js";
import type { RouterSessionFactory } from "../router/contracts.js";
import { ExecutaHostError } from "../process/errors.js";
import type { InvokeOutcome } from "../process/invoke.js";
import type { DescribedManifest } from "../process/manifest.js";
import type { ClientInfo } from "../process/plugin-instance.js";
import type { PluginLauncher } from "../process/launcher.js";
import type { SupervisorMode } from "../process/supervisor.js";
import {
  PluginProcess,
  type HealthReport,
  type InvokeOptions,
  type PluginProcessOptions,
  type RestartPolicy,
} from "../process/plugin-process.js";

export interface ExecutaHostOptions {
  /** Routes reverse RPCs; without it they are refused with the family's NOT_NEGOTIATED code. */
  router?: RouterSessionFactory;
  logger?: Logger;
  /** The default user environment for plugins (per-user overrides at `register`). */
  env?: Readonly<Record<string, string | undefined>>;
  timeouts?: PluginProcessOptions["timeouts"];
  restart?: Partial<RestartPolicy>;
  maxLineBytes?: number;
  clientInfo?: ClientInfo;
  /** See PluginProcessOptions.supervisor. */
  supervisor?: SupervisorMode;
}

export interface RegisterOptions {
  userId: string;
  /** This user's environment; defaults to the host's `env`, then `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** This plugin's wrapper (a per-(user, tool) sandbox); see PluginProcessOptions.launcher. */
  launcher?: PluginLauncher;
}

/** Called with every PluginProcess the host creates, e.g. to subscribe a UI to its events. */
export type ProcessListener = (process: PluginProcess) => void;

export class ExecutaHost {
  private readonly options: ExecutaHostOptions;
  private readonly logger: Logger;
  /** user → tool_id → process. Nested maps: the lookup on every invoke allocates no key. */
  private readonly pool = new Map<string, Map<string, PluginProcess>>();
  /** The same processes in registration order. */
  private readonly ordered = new Set<PluginProcess>();
  private readonly listeners = new Set<ProcessListener>();
  private closing: Promise<void> | undefined;

  constructor(options: ExecutaHostOptions = {}) {
    this.options = options;
    this.logger = options.logger ?? NULL_LOGGER;
  }

  /**
   * Registers a plugin for a user; nothing is spawned until it is used. Registering the same
   * (user, tool_id) again returns the existing process (the first spec wins until `unregister`).
   */
  register(spec: LaunchSpec, options: RegisterOptions): PluginProcess {
    this.assertOpen();
    const existing = this.get(options.userId, spec.toolId);
    if (existing !== undefined) return existing;
    const env = options.env ?? this.options.env;
    const created = new PluginProcess({
      spec,
      userId: options.userId,
      logger: this.logger,
      ...(env === undefined ? {} : { env }),
      ...(options.launcher === undefined ? {} : { launcher: options.launcher }),
      ...(this.options.router === undefined ? {} : { router: this.options.router }),
      ...(this.options.timeouts === undefined ? {} : { timeouts: this.options.timeouts }),
      ...(this.options.restart === undefined ? {} : { restart: this.options.restart }),
      ...(this.options.maxLineBytes === undefined
        ? {}
        : { maxLineBytes: this.options.maxLineBytes }),
      ...(this.options.clientInfo === undefined ? {} : { clientInfo: this.options.clientInfo }),
      ...(this.options.supervisor === undefined ? {} : { supervisor: this.options.supervisor }),
    });
    let tools = this.pool.get(options.userId);
    if (tools === undefined) {
      tools = new Map();
      this.pool.set(options.userId, tools);
    }
    tools.set(spec.toolId, created);
    this.ordered.add(created);
    for (const listener of this.listeners) {
      try {
        listener(created);
      } catch (error) {
        this.logger.error("process listener threw", { toolId: spec.toolId, error: String(error) });
      }
    }
    return created;
  }

  get(userId: string, toolId: string): PluginProcess | undefined {
    return this.pool.get(userId)?.get(toolId);
  }

  /** Every registered plugin, for dashboards. */
  processes(): PluginProcess[] {
    return [...this.ordered];
  }

  /** Subscribe to newly registered processes; returns the unsubscribe function. */
  onProcess(listener: ProcessListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shut the plugin down (H4) and forget it. */
  async unregister(userId: string, toolId: string): Promise<void> {
    const tools = this.pool.get(userId);
    const process = tools?.get(toolId);
    if (tools === undefined || process === undefined) return;
    tools.delete(toolId);
    if (tools.size === 0) this.pool.delete(userId);
    this.ordered.delete(process);
    await process.close();
  }

  /**
   * Invoke a tool. Resolves with the outcome for every plugin-side failure (tool failure, error
   * frame, timeout, exit, stopped plugin); rejects only for an unknown plugin or a closed host.
   */
  invoke(
    userId: string,
    toolId: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    options: InvokeOptions = {},
  ): Promise<InvokeOutcome> {
    return this.require(userId, toolId).invoke(tool, args, options);
  }

  describe(userId: string, toolId: string, signal?: AbortSignal): Promise<DescribedManifest> {
    return this.require(userId, toolId).describe(signal);
  }

  health(userId: string, toolId: string): Promise<HealthReport> {
    return this.require(userId, toolId).health();
  }

  restart(userId: string, toolId: string): Promise<void> {
    return this.require(userId, toolId).restart();
  }

  /** Shut every plugin down in parallel (H4); later calls reject with HOST_CLOSED. */
  close(): Promise<void> {
    this.closing ??= Promise.allSettled([...this.ordered].map((p) => p.close())).then(
      () => undefined,
    );
    return this.closing;
  }

  private require(userId: string, toolId: string): PluginProcess {
    this.assertOpen();
    const process = this.get(userId, toolId);
    if (process === undefined) {
      throw new ExecutaHostError(
        "NOT_REGISTERED",
        `plugin "${toolId}" is not registered for user "${userId}"`,
      );
    }
    return process;
  }

  private assertOpen(): void {
    if (this.closing !== undefined) {
      throw new ExecutaHostError("HOST_CLOSED", "the Executa host is closed");
    }
  }
}
