// One supervised plugin for one (user, tool_id): lazily started, restarted on crashes with
// backoff (H6), killed and replaced after an invoke timeout (H5), shut down per H4. It owns a
// sequence of PluginInstances (OS processes); only the current one drives the state machine,
// while retiring ones are still awaited so nothing is left behind.

import { EventEmitter } from "node:events";
import { healthState } from "@anna-ai/app-schema";
import { METHOD_NOT_FOUND, NULL_LOGGER, RpcError, RpcLocalError } from "@anna-ai/jsonrpc";
import type { JsonRpcErrorObject, Logger, RequestOptions } from "@anna-ai/jsonrpc";
import { toolchainProblem } from "../launch/tool-version.js";
import type { LaunchSpec } from "../launch/types.js";
import type { InvokeStart, RouterSession, RouterSessionFactory } from "../router/contracts.js";
import { refuseReverseRequest } from "./default-reverse.js";
import { hostError } from "./errors.js";
import type { PluginEventName, PluginEvents, PluginListener, PluginState } from "./events.js";
import {
  buildInvokeParams,
  DEFAULT_INVOKE_TIMEOUT_MS,
  invokeTimeoutMs,
  normaliseInvokeResult,
  type InvokeOutcome,
  type InvokeParamsInput,
} from "./invoke.js";
import { newInvokeId } from "./invoke-id.js";
import type { DescribedManifest } from "./manifest.js";
import { PluginInstance, type ClientInfo, type ExitInfo } from "./plugin-instance.js";
import { shutdownPluginProcess, type ShutdownGrace } from "./shutdown.js";
import type { PluginLauncher } from "./launcher.js";
import { StderrRing } from "./stderr-ring.js";
import { resolveSupervisorMode, supervisorFor, type SupervisorMode } from "./supervisor.js";

export const INITIALIZE_TIMEOUT_MS = 5_000;
export const DESCRIBE_TIMEOUT_MS = 5_000;
export const DESCRIBE_TIMEOUT_BINARY_COLD_START_MS = 60_000;
export const HEALTH_TIMEOUT_MS = 3_000;
export const MAX_RESTART_ATTEMPTS = 3;
export const RESTART_BACKOFF_BASE_MS = 1_000;
export const RESTART_COUNTER_RESET_MS = 60_000;
/** Dropped stdout lines reported one by one per process; after that, one summary per 1,000. */
export const DROPPED_LINE_WARNINGS = 10;
export const DROPPED_LINE_SUMMARY_EVERY = 1_000;
export const DEFAULT_CLIENT_INFO: ClientInfo = Object.freeze({
  name: "anna-executa-host",
  version: "0.1.0",
});

export interface PluginTimeouts {
  initializeMs: number;
  describeMs: number;
  /** `describe` on the first start of a binary (`LaunchSpec.binaryColdStart`, T3/Z2). */
  describeColdStartMs: number;
  healthMs: number;
  /** For tools that declare no `timeout`. */
  invokeMs: number;
  /** H4 grace periods; shorten them in tests. */
  shutdown: Partial<ShutdownGrace>;
}

export interface RestartPolicy {
  /** Restarts per crash episode (H6). */
  maxAttempts: number;
  /** Delay before attempt n is base · 2^(n-1): 1 s, 2 s, 4 s. */
  backoffBaseMs: number;
  /** Running this long without a crash ends the episode (the counter resets). */
  resetAfterMs: number;
}

export interface PluginProcessOptions {
  spec: LaunchSpec;
  userId: string;
  /** The user's environment; the spec's `env` goes on top. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  router?: RouterSessionFactory;
  logger?: Logger;
  timeouts?: Partial<Omit<PluginTimeouts, "shutdown">> & { shutdown?: Partial<ShutdownGrace> };
  restart?: Partial<RestartPolicy>;
  /** Longest line accepted from the plugin (H2); the transport's default (16 MiB) otherwise. */
  maxLineBytes?: number;
  clientInfo?: ClientInfo;
  /**
   * What plugins run under so none outlives the host, even a SIGKILLed one (`auto`: bubblewrap
   * where it works). Defaults to ANNA_EXECUTA_SUPERVISOR, else `auto`.
   */
  supervisor?: SupervisorMode;
  /** Runs every start through the caller's wrapper instead of `supervisor` (see PluginLauncher). */
  launcher?: PluginLauncher;
}

export interface InvokeOptions {
  /** Platform credentials for this invoke only (H10): `context.credentials`. */
  credentials?: Readonly<Record<string, string>>;
  /** Overrides the tool's declared `timeout`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The Anna App the invoke comes from (H14), passed to the router. */
  app?: { appId: string; appScopeGranted: boolean };
  /**
   * The invoke id to use instead of a fresh one, for callers that must match the plugin's
   * progress and reverse calls to their own request (the MCP server of `executa mcp`).
   */
  invokeId?: string;
}

export type HealthStatus = "healthy" | "starting" | "unhealthy";

export interface HealthReport {
  status: HealthStatus;
  state: PluginState;
  /** Why it is not healthy, or what the plugin said. */
  detail?: string;
  /** The plugin's `health` result when it answered one. */
  raw?: unknown;
  /** The JSON-RPC error the health request ended with (the plugin's own, or the host's timeout). */
  error?: JsonRpcErrorObject;
}

export class PluginProcess {
  readonly spec: LaunchSpec;
  readonly userId: string;
  readonly toolId: string;
  /** `plugin "<tool_id>"`: how every message names this plugin. */
  readonly label: string;

  private readonly options: PluginProcessOptions;
  private readonly logger: Logger;
  private readonly timeouts: PluginTimeouts;
  private readonly supervisor: SupervisorMode;
  private readonly policy: RestartPolicy;
  private readonly emitter = new EventEmitter();
  private readonly stderr = new StderrRing();

  private currentState: PluginState = "idle";
  private reason: string | undefined;
  private current: PluginInstance | undefined;
  private session: RouterSession | undefined;
  private starting: Promise<PluginInstance> | undefined;
  private readonly retiring = new Set<Promise<unknown>>();
  /** Every instance not yet exited (current and retiring), for frame observation. */
  private readonly live = new Set<PluginInstance>();
  private startCount = 0;
  private attempts = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private healthyTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private stateWaiters: Array<() => void> = [];

  constructor(options: PluginProcessOptions) {
    this.options = options;
    this.spec = options.spec;
    this.userId = options.userId;
    this.toolId = options.spec.toolId;
    this.label = `plugin "${options.spec.toolId}"`;
    this.logger = options.logger ?? NULL_LOGGER;
    this.supervisor = resolveSupervisorMode(options.supervisor);
    // Asking for bwrap where it cannot run fails here, once, not as a spawn error per restart.
    if (this.supervisor === "bwrap" && options.launcher === undefined) supervisorFor("bwrap");
    this.timeouts = {
      initializeMs: options.timeouts?.initializeMs ?? INITIALIZE_TIMEOUT_MS,
      describeMs: options.timeouts?.describeMs ?? DESCRIBE_TIMEOUT_MS,
      describeColdStartMs:
        options.timeouts?.describeColdStartMs ?? DESCRIBE_TIMEOUT_BINARY_COLD_START_MS,
      healthMs: options.timeouts?.healthMs ?? HEALTH_TIMEOUT_MS,
      invokeMs: options.timeouts?.invokeMs ?? DEFAULT_INVOKE_TIMEOUT_MS,
      shutdown: options.timeouts?.shutdown ?? {},
    };
    this.policy = {
      maxAttempts: options.restart?.maxAttempts ?? MAX_RESTART_ATTEMPTS,
      backoffBaseMs: options.restart?.backoffBaseMs ?? RESTART_BACKOFF_BASE_MS,
      resetAfterMs: options.restart?.resetAfterMs ?? RESTART_COUNTER_RESET_MS,
    };
  }

  // ---- observation -------------------------------------------------------------------------

  get state(): PluginState {
    return this.currentState;
  }

  /** Why the plugin is `stopped` (or was last stopped). */
  get stoppedReason(): string | undefined {
    return this.currentState === "stopped" ? this.reason : undefined;
  }

  /** pid (= process group id) of the current process. */
  get pid(): number | undefined {
    return this.current?.pid;
  }

  /** The cached manifest of the current process (after `describe`). */
  get manifest(): DescribedManifest | undefined {
    return this.current?.manifest;
  }

  get protocolVersion(): "1.1" | "2.0" | undefined {
    return this.current?.handshake?.protocolVersion;
  }

  /** The last stderr lines (up to 200), across restarts. */
  stderrTail(count?: number): string[] {
    return this.stderr.lines(count);
  }

  /** Subscribe; returns the unsubscribe function. Listener errors are caught and reported. */
  on<K extends PluginEventName>(event: K, listener: PluginListener<K>): () => void {
    this.emitter.on(event, listener);
    if (event === "frame") this.syncFrameObservers();
    return () => {
      this.emitter.off(event, listener);
      if (event === "frame") this.syncFrameObservers();
    };
  }

  // ---- operations --------------------------------------------------------------------------

  async invoke(
    tool: string,
    args: Record<string, unknown> | undefined,
    options: InvokeOptions = {},
  ): Promise<InvokeOutcome> {
    let instance: PluginInstance;
    const ready = this.currentState === "ready" && !this.closed ? this.current : undefined;
    if (ready !== undefined && options.signal?.aborted !== true) {
      instance = ready; // the hot path: no extra await
    } else {
      const started = performance.now();
      try {
        instance = await this.ensureReady(options.signal);
      } catch (error) {
        return rpcOutcome(this.asRpcError(error, `tool ${tool}`), performance.now() - started);
      }
    }
    const timeoutMs = invokeTimeoutMs(
      instance.manifest,
      tool,
      options.timeoutMs,
      this.timeouts.invokeMs,
    );
    const invokeId = options.invokeId ?? newInvokeId();
    const deadlineMs = Date.now() + timeoutMs;
    const session = this.session;
    const sent = performance.now();
    // Hot path: the objects below are built field by field; a spread of a conditional object
    // (`...(x ? {} : {x})`) takes V8's slow generic copy and showed up in the profile.
    try {
      let extraContext: Record<string, string> | undefined;
      if (session !== undefined) {
        const start: InvokeStart = { invokeId, tool, deadlineMs };
        if (options.app !== undefined) start.app = options.app;
        const begun = session.beginInvoke(start);
        // Usually a plain value: awaiting it anyway would cost a microtask turn per invoke.
        extraContext =
          typeof begun.then === "function" ? await begun : (begun as Record<string, string>);
      }
      const input: InvokeParamsInput = {
        tool,
        args,
        invokeId,
        pluginName: pluginNameOf(instance, this.toolId),
        deadlineMs,
      };
      if (options.credentials !== undefined) input.credentials = options.credentials;
      if (extraContext !== undefined) input.extraContext = extraContext;
      const requestOptions: RequestOptions = { timeoutMs };
      if (options.signal !== undefined) requestOptions.signal = options.signal;
      const raw = await instance.request(
        "invoke",
        buildInvokeParams(input),
        requestOptions,
        `tool ${tool}`,
      );
      return normaliseInvokeResult(raw, performance.now() - sent);
    } catch (error) {
      if (error instanceof RpcLocalError && error.code === "ABORTED") {
        notifyCancelled(instance, invokeId, tool, options.signal?.reason);
      }
      const rpcError = this.invokeError(instance, tool, timeoutMs, error);
      return rpcOutcome(rpcError, performance.now() - sent);
    } finally {
      session?.endInvoke(invokeId);
    }
  }

  /** The manifest from `describe`, cached per process (starts the plugin if needed). */
  async describe(signal?: AbortSignal): Promise<DescribedManifest> {
    const instance = await this.ensureReady(signal);
    if (instance.manifest === undefined) {
      throw hostError("INVALID_MANIFEST", `${this.label} has no manifest`);
    }
    return instance.manifest;
  }

  /**
   * H8: any `health` result means alive; `ready`/`healthy`/`ok` healthy, `initializing` starting,
   * `error` unhealthy; -32601 healthy. No answer within the timeout: unhealthy.
   */
  async health(): Promise<HealthReport> {
    const state = this.currentState;
    if (state === "starting" || state === "initializing" || state === "restarting") {
      return { status: "starting", state };
    }
    if (state === "stopped" || state === "crashed" || state === "stopping") {
      return {
        status: "unhealthy",
        state,
        ...(this.reason === undefined ? {} : { detail: this.reason }),
      };
    }
    let instance: PluginInstance;
    try {
      instance = await this.ensureReady();
    } catch (error) {
      return { status: "unhealthy", state: this.currentState, detail: messageOf(error) };
    }
    try {
      const raw = await instance.request(
        "health",
        undefined,
        { timeoutMs: this.timeouts.healthMs },
        "health",
      );
      return { ...healthFromResult(raw), state: this.currentState, raw };
    } catch (error) {
      const wire = error instanceof RpcError ? { error: error.toJSON() } : {};
      if (error instanceof RpcError && error.code === METHOD_NOT_FOUND) {
        return {
          status: "healthy",
          state: this.currentState,
          detail: "health not implemented",
          ...wire,
        };
      }
      return { status: "unhealthy", state: this.currentState, detail: messageOf(error), ...wire };
    }
  }

  /** Stop the current process (H4) and start a fresh one; also revives a `stopped` plugin. */
  async restart(): Promise<void> {
    if (this.closed) throw hostError("PLUGIN_STOPPED", `${this.label} is closed`);
    this.clearRestartTimer();
    this.attempts = 0;
    const old = this.current;
    if (old !== undefined) await this.retire(old, "request", "restart requested");
    // A start that was in flight fails now that its process is gone; let it settle first.
    await this.starting?.catch(() => undefined);
    if (this.currentState === "stopped" || this.currentState === "restarting") {
      this.setState("idle", "restart requested");
    }
    await this.ensureReady();
  }

  /** Shut down (H4) the current and any retiring process; the plugin ends `stopped`. */
  async close(): Promise<void> {
    if (this.closed) {
      await Promise.allSettled([...this.retiring]);
      return;
    }
    this.closed = true;
    this.clearRestartTimer();
    this.clearHealthyTimer();
    const instance = this.current;
    if (instance !== undefined) void this.retire(instance, "request", "the host is closing");
    else if (this.currentState !== "stopped") this.setState("stopping", "the host is closing");
    await Promise.allSettled([...this.retiring]);
    this.setState("stopped", "closed by the host");
    this.notifyWaiters();
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  private async ensureReady(signal?: AbortSignal): Promise<PluginInstance> {
    for (;;) {
      if (signal?.aborted === true) {
        throw hostError(
          "ABORTED",
          `${this.label}: cancelled while waiting for the plugin to start`,
        );
      }
      if (this.closed) throw this.stoppedError("it was closed by the host");
      switch (this.currentState) {
        case "ready":
          if (this.current !== undefined) return this.current;
          break;
        case "stopped":
          throw this.stoppedError(this.reason ?? "stopped");
        case "starting":
        case "initializing":
          if (this.starting !== undefined) return await this.starting;
          break;
        case "crashed":
        case "restarting":
          await this.nextStateChange(signal);
          continue;
        case "idle":
        case "stopping":
          break;
      }
      return await this.startNew();
    }
  }

  /** Exactly one start at a time: concurrent first calls share it (H11: never spawn twice). */
  private startNew(): Promise<PluginInstance> {
    if (this.starting !== undefined) return this.starting;
    const attempt = this.runStart();
    this.starting = attempt;
    const clear = (): void => {
      if (this.starting === attempt) this.starting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  private async runStart(): Promise<PluginInstance> {
    const coldStart = this.spec.binaryColdStart && this.startCount === 0;
    this.startCount++;
    this.setState("starting");
    // A launcher detection did not find would only fail as `spawn go ENOENT`: say what to install.
    const toolchain = this.spec.toolchain;
    const missing =
      toolchain !== undefined && toolchain.path === undefined
        ? toolchainProblem(toolchain)
        : undefined;
    if (missing !== undefined) {
      const error = hostError("SPAWN_FAILED", `${this.label} cannot start: ${missing}`);
      this.setState("stopped", error.message);
      throw error;
    }
    let instance: PluginInstance;
    try {
      instance = this.spawnInstance();
    } catch (error) {
      const rpcError = this.asRpcError(error, "start");
      this.setState("stopped", rpcError.message);
      throw rpcError;
    }
    this.current = instance;
    try {
      await instance.spawned();
    } catch (error) {
      // ENOENT and friends do not fix themselves: no restart churn.
      this.current = undefined;
      const rpcError = this.asRpcError(error, "start");
      this.setState("stopped", rpcError.message);
      throw rpcError;
    }
    this.setState("initializing", undefined, instance.pid);
    try {
      const handshake = await instance.initialize(this.timeouts.initializeMs, this.clientInfo());
      if (handshake.fallbackReason !== undefined) {
        this.warn(
          "PROTOCOL_FALLBACK",
          `${this.label} speaks protocol 1.1: ${handshake.fallbackReason}`,
        );
      }
      const { manifest, warnings } = await instance.describe(
        coldStart ? this.timeouts.describeColdStartMs : this.timeouts.describeMs,
      );
      for (const warning of warnings) {
        this.warn("MANIFEST", `${this.label}: ${warning.message} (${warning.code})`);
      }
      if (this.current !== instance || instance.hostStopReason !== undefined) {
        throw instance.exitError("start");
      }
      this.session = this.options.router?.attach({
        toolId: this.toolId,
        userId: this.userId,
        pluginName: manifest.name ?? this.toolId,
        protocolVersion: handshake.protocolVersion,
        pluginCapabilities: handshake.pluginCapabilities,
        hostCapabilities: manifest.host_capabilities ?? [],
        credentialNames: (manifest.credentials ?? []).map((c) => c.name),
      });
    } catch (error) {
      const rpcError = this.startError(instance, error);
      if (instance.hostStopReason === undefined && !this.closed) {
        // A start that fails is a fault: stop what is left of it and count it (H6).
        await this.retire(instance, "sigterm", `start failed: ${rpcError.message}`, false);
        this.onCrash(rpcError.message);
      }
      throw rpcError;
    }
    this.setState("ready", undefined, instance.pid);
    this.armHealthyTimer();
    return instance;
  }

  private spawnInstance(): PluginInstance {
    const spec = this.spec;
    if (this.startCount === 1) {
      for (const warning of spec.warnings) this.warn("LAUNCH", `${this.label}: ${warning}`);
    }
    let droppedLines = 0;
    const instance: PluginInstance = new PluginInstance({
      label: this.label,
      spawn: {
        command: spec.command,
        cwd: spec.cwd,
        env: { ...(this.options.env ?? process.env), ...spec.env },
        supervisor: this.supervisor,
        ...(this.options.launcher === undefined ? {} : { launcher: this.options.launcher }),
      },
      stderr: this.stderr,
      logger: this.logger,
      ...(this.options.maxLineBytes === undefined
        ? {}
        : { maxLineBytes: this.options.maxLineBytes }),
      hooks: {
        onStderrLine: (line) => this.emit("stderr", { line, pid: instance.pid }),
        onFrame: (direction, message, meta) =>
          this.emit("frame", { direction, message, meta, pid: instance.pid }),
        onDropped: (dropped) => {
          // A plugin printing to stdout in a loop must not turn into a flood of warnings.
          droppedLines++;
          if (
            droppedLines > DROPPED_LINE_WARNINGS &&
            droppedLines % DROPPED_LINE_SUMMARY_EVERY !== 0
          ) {
            return;
          }
          const skipped =
            droppedLines > DROPPED_LINE_WARNINGS ? ` (${droppedLines} lines skipped so far)` : "";
          this.warn(
            "DROPPED_LINE",
            `${this.label} wrote a line that is not a frame (${dropped.reason}); skipped${skipped}`,
            dropped,
          );
        },
        onExit: (info) => this.onInstanceExit(instance, info),
        onOutputClosed: () => {
          if (instance.hostStopReason !== undefined) return;
          const reason = `${this.label} closed its stdout but kept running`;
          this.warn("OUTPUT_CLOSED", reason);
          void this.retire(instance, "sigterm", reason);
        },
        handleRequest: (method, params, signal) => {
          const session = this.current === instance ? this.session : undefined;
          if (session === undefined) throw refuseReverseRequest(method, this.label);
          return session.handleRequest(method, params, signal);
        },
        handleNotification: (method, params) => {
          if (this.current === instance) this.session?.handleNotification(method, params);
        },
      },
    });
    this.live.add(instance);
    if (this.emitter.listenerCount("frame") > 0) instance.observeFrames(true);
    return instance;
  }

  private onInstanceExit(instance: PluginInstance, info: ExitInfo): void {
    this.live.delete(instance);
    const hostInitiated = instance.hostStopReason !== undefined;
    this.emit("exit", { pid: instance.pid, code: info.code, signal: info.signal, hostInitiated });
    if (this.current !== instance) return;
    this.current = undefined;
    this.disposeSession();
    this.clearHealthyTimer();
    // Exits during startup are reported (and counted) by runStart; host stops by retire.
    if (hostInitiated || this.currentState !== "ready") return;
    if (info.code === 0 && info.signal === null) {
      this.warn(
        "EXITS_AFTER_RESPONSE",
        `${this.label} exits after each response; it should keep reading stdin until EOF (pitfall 1). It will be restarted on the next call.`,
      );
      this.setState("idle", `${this.label} exited with code 0`);
      return;
    }
    this.onCrash(instance.exitError("no call").message.replace(/ while no call was running/, ""));
  }

  /** H6: back off 1 s, 2 s, 4 s; then `stopped` with the reason. */
  private onCrash(reason: string): void {
    if (this.closed) return;
    this.clearHealthyTimer();
    this.setState("crashed", reason);
    if (this.attempts >= this.policy.maxAttempts) {
      const tail = this.stderr.lines(1)[0];
      this.setState(
        "stopped",
        `${reason}; gave up after ${this.policy.maxAttempts} restart attempts` +
          (tail === undefined || reason.includes(tail) ? "" : `; stderr: ${tail}`),
      );
      return;
    }
    this.attempts++;
    const delayMs = this.policy.backoffBaseMs * 2 ** (this.attempts - 1);
    this.emit("restart", {
      attempt: this.attempts,
      maxAttempts: this.policy.maxAttempts,
      delayMs,
      reason,
    });
    this.setState("restarting", reason);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closed || this.currentState !== "restarting") return;
      this.startNew().catch(() => {
        // runStart already moved the state machine on (next attempt or stopped).
      });
    }, delayMs);
  }

  /**
   * Stop an instance on the host's initiative (H4 from the `shutdown` request, or from SIGTERM
   * after a timeout, H5). It no longer counts as current; its exit is not a crash.
   */
  private retire(
    instance: PluginInstance,
    startAt: "request" | "sigterm",
    reason: string,
    changeState = true,
  ): Promise<unknown> {
    if (instance.hostStopReason !== undefined) return instance.exited;
    instance.hostStopReason = reason;
    const wasCurrent = this.current === instance;
    if (wasCurrent) {
      this.current = undefined;
      this.disposeSession();
      this.clearHealthyTimer();
      if (changeState) this.setState("stopping", reason, instance.pid);
    }
    const stopping = shutdownPluginProcess(instance.shutdownTarget(), {
      grace: this.timeouts.shutdown,
      startAt,
    }).then(
      (step) => {
        this.logger.debug("plugin process stopped", {
          plugin: this.label,
          step,
          pid: instance.pid,
        });
        if (
          changeState &&
          wasCurrent &&
          this.current === undefined &&
          this.currentState === "stopping" &&
          !this.closed
        ) {
          this.setState("idle", reason);
        }
      },
      (error: unknown) =>
        this.logger.error("plugin shutdown failed", { plugin: this.label, error: String(error) }),
    );
    this.retiring.add(stopping);
    void stopping.finally(() => this.retiring.delete(stopping));
    return stopping;
  }

  // ---- errors ------------------------------------------------------------------------------

  private invokeError(
    instance: PluginInstance,
    tool: string,
    timeoutMs: number,
    error: unknown,
  ): RpcError {
    if (error instanceof RpcError) return error;
    if (error instanceof RpcLocalError) {
      switch (error.code) {
        case "TIMEOUT": {
          const seconds = timeoutMs / 1000;
          const timeoutError = hostError(
            "TIMEOUT",
            `${this.label} tool ${tool} timed out after ${seconds} s`,
            { toolId: this.toolId, tool, timeoutMs, pid: instance.pid },
            error,
          );
          this.killAfterTimeout(instance, tool, seconds);
          return timeoutError;
        }
        case "FRAME_TOO_LARGE":
          return hostError(
            "FRAME_TOO_LARGE",
            `${this.label} tool ${tool} answered with a line over the frame size limit; the plugin should use file transport for large results`,
            { toolId: this.toolId, tool },
            error,
          );
        case "ABORTED":
          return hostError(
            "ABORTED",
            `${this.label} tool ${tool} was cancelled`,
            { toolId: this.toolId, tool },
            error,
          );
        case "INVALID_FRAME":
          return hostError(
            "INVALID_FRAME",
            `${this.label} tool ${tool}: the reply could not be read (${error.message})`,
            { toolId: this.toolId, tool },
            error,
          );
        case "CONNECTION_CLOSED":
          return instance.exitError(`tool ${tool}`);
      }
    }
    return this.asRpcError(error, `tool ${tool}`);
  }

  /** H5: the timed-out process gets SIGTERM (then SIGKILL); its other invokes fail now. */
  private killAfterTimeout(instance: PluginInstance, tool: string, seconds: number): void {
    if (instance.hostStopReason !== undefined) return;
    const reason = `tool ${tool} timed out after ${seconds} s`;
    void this.retire(instance, "sigterm", reason);
    instance.failPending((what) =>
      hostError(
        "PROCESS_EXITED",
        `${this.label} is being stopped (${reason}) while ${what} was running`,
        {
          ...instance.exitData(),
          stoppedBy: reason,
        },
      ),
    );
  }

  private startError(instance: PluginInstance, error: unknown): RpcError {
    const exit = instance.exitInfo;
    if (
      error instanceof RpcError &&
      exit !== undefined &&
      exit.code === 0 &&
      instance.hostStopReason === undefined
    ) {
      // Pitfall 1 in its strictest form: the process answered its first request and left.
      const message = `${this.label} exits after each response; it should keep reading stdin until EOF (pitfall 1)`;
      this.warn("EXITS_AFTER_RESPONSE", message);
      return hostError(
        "PROCESS_EXITED",
        `${error.message}. ${message}`,
        error.data !== null && typeof error.data === "object" ? { ...error.data } : {},
        error,
      );
    }
    if (error instanceof RpcError) return error;
    if (error instanceof RpcLocalError && error.code === "TIMEOUT") {
      return hostError(
        "TIMEOUT",
        `${this.label} did not answer describe in time (${error.message}); is it writing to stdout and reading stdin?`,
        { toolId: this.toolId, pid: instance.pid, stderrTail: this.stderr.lines(20) },
        error,
      );
    }
    return this.asRpcError(error, "start");
  }

  private asRpcError(error: unknown, what: string): RpcError {
    if (error instanceof RpcError) return error;
    return hostError(
      "INTERNAL_ERROR",
      `${this.label}: ${what} failed: ${messageOf(error)}`,
      { toolId: this.toolId },
      error,
    );
  }

  private stoppedError(reason: string): RpcError {
    return hostError("PLUGIN_STOPPED", `${this.label} is stopped: ${reason}`, {
      toolId: this.toolId,
      reason,
      stderrTail: this.stderr.lines(20),
    });
  }

  // ---- plumbing ----------------------------------------------------------------------------

  private clientInfo(): ClientInfo {
    return this.options.clientInfo ?? DEFAULT_CLIENT_INFO;
  }

  private setState(state: PluginState, reason?: string, pid?: number): void {
    const previous = this.currentState;
    if (previous === state && reason === this.reason) return;
    this.currentState = state;
    this.reason = reason;
    this.emit("state", {
      state,
      previous,
      ...(reason === undefined ? {} : { reason }),
      ...(pid === undefined ? {} : { pid }),
    });
    this.notifyWaiters();
  }

  private nextStateChange(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.stateWaiters.push(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private notifyWaiters(): void {
    const waiters = this.stateWaiters;
    this.stateWaiters = [];
    for (const waiter of waiters) waiter();
  }

  private armHealthyTimer(): void {
    this.clearHealthyTimer();
    if (this.attempts === 0) return;
    this.healthyTimer = setTimeout(() => {
      this.healthyTimer = undefined;
      this.attempts = 0;
    }, this.policy.resetAfterMs);
    this.healthyTimer.unref();
  }

  private clearHealthyTimer(): void {
    if (this.healthyTimer !== undefined) clearTimeout(this.healthyTimer);
    this.healthyTimer = undefined;
  }

  private clearRestartTimer(): void {
    if (this.restartTimer !== undefined) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  /** Frames are observed only while someone listens to `frame`. */
  private syncFrameObservers(): void {
    const on = this.emitter.listenerCount("frame") > 0;
    for (const instance of this.live) instance.observeFrames(on);
  }

  private disposeSession(): void {
    const session = this.session;
    this.session = undefined;
    try {
      session?.dispose();
    } catch (error) {
      this.logger.warn("router session dispose failed", {
        plugin: this.label,
        error: String(error),
      });
    }
  }

  private warn(
    code: PluginEvents["warning"]["code"],
    message: string,
    dropped?: PluginEvents["warning"]["dropped"],
  ): void {
    this.logger.warn(message, { plugin: this.toolId, user: this.userId, code });
    this.emit("warning", { code, message, ...(dropped === undefined ? {} : { dropped }) });
  }

  private emit<K extends PluginEventName>(event: K, payload: PluginEvents[K]): void {
    // Hot path: every frame comes through here, usually with nobody listening.
    if (this.emitter.listenerCount(event) === 0) return;
    for (const listener of this.emitter.listeners(event)) {
      try {
        (listener as PluginListener<K>)(payload);
      } catch (error) {
        this.logger.error("plugin event listener threw", {
          plugin: this.toolId,
          event,
          error: String(error),
        });
      }
    }
  }
}

function rpcOutcome(error: RpcError, durationMs: number): InvokeOutcome {
  return { ok: false, kind: "rpc_error", error, durationMs };
}

function pluginNameOf(instance: PluginInstance, toolId: string): string {
  return instance.manifest?.name ?? toolId;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** H8 mapping of a `health` result (app-schema's `healthState`), with its message. */
export function healthFromResult(raw: unknown): { status: HealthStatus; detail?: string } {
  const message =
    raw !== null && typeof raw === "object" ? (raw as { message?: unknown }).message : undefined;
  return {
    status: healthState(raw),
    ...(typeof message === "string" && message !== "" ? { detail: message } : {}),
  };
}

/**
 * Tells the plugin the host stopped waiting for an invoke it cancelled. Plugins that do not know
 * the notification ignore it (JSON-RPC); the MCP bridge forwards it as MCP cancellation.
 */
function notifyCancelled(
  instance: PluginInstance,
  invokeId: string,
  tool: string,
  reason: unknown,
): void {
  if (instance.peer.isClosed) return;
  instance.peer.notify("executa/cancel", {
    invoke_id: invokeId,
    context: { invoke_id: invokeId },
    tool,
    reason: reason instanceof Error ? reason.message : "cancelled by the caller",
  });
}
