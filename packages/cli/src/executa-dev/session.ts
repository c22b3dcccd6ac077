// One plugin under `executa dev`: the host pool with a single registered process, the reverse-RPC
// router built from the flags, and the observers the REPL, --trace and --record hang off.
import { appendFileSync, writeFileSync } from "node:fs";
import type { FrameMeta, JsonRpcMessage } from "@anna-ai/jsonrpc";
import { redactSecrets } from "@anna-ai/jsonrpc";
import {
  ExecutaHost,
  type DescribedManifest,
  type HealthReport,
  type InvokeOutcome,
  type LaunchSpec,
  type PluginProcess,
  type PluginState,
  type ExecutaHostOptions,
} from "@anna-ai/executa-host";

export const DEV_USER_ID = "dev-user";

export interface DevSessionOptions {
  spec: LaunchSpec;
  router: ExecutaHostOptions["router"];
  /** The user's environment for the plugin (HOME and credentials pass through). */
  env: NodeJS.ProcessEnv;
  /** Credentials from --credential, merged over declared names found in `env`. */
  credentials: Record<string, string>;
  /** JSONL transcript of every frame (redacted). */
  recordPath?: string;
}

export interface DevSessionListeners {
  frame?(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void;
  stderr?(line: string): void;
  state?(state: PluginState, previous: PluginState, reason?: string): void;
  restart?(attempt: number, maxAttempts: number, delayMs: number, reason: string): void;
  warning?(message: string): void;
}

export class DevSession {
  readonly host: ExecutaHost;
  readonly process: PluginProcess;
  private readonly startedAt = performance.now();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly options: DevSessionOptions,
    listeners: DevSessionListeners,
  ) {
    this.host = new ExecutaHost({
      env: options.env,
      ...(options.router ? { router: options.router } : {}),
    });
    this.process = this.host.register(options.spec, { userId: DEV_USER_ID, env: options.env });
    const recordPath = options.recordPath;
    if (recordPath !== undefined) writeFileSync(recordPath, "");
    this.unsubscribe.push(
      this.process.on("frame", (e) => {
        listeners.frame?.(e.direction, e.message, e.meta);
        if (recordPath !== undefined) this.record(recordPath, e.direction, e.message, e.meta);
      }),
      this.process.on("stderr", (e) => listeners.stderr?.(e.line)),
      this.process.on("state", (e) => listeners.state?.(e.state, e.previous, e.reason)),
      this.process.on("restart", (e) =>
        listeners.restart?.(e.attempt, e.maxAttempts, e.delayMs, e.reason),
      ),
      this.process.on("warning", (e) => listeners.warning?.(e.message)),
    );
  }

  get toolId(): string {
    return this.options.spec.toolId;
  }

  /** Starts the plugin (initialize + describe) and returns its manifest. */
  describe(): Promise<DescribedManifest> {
    return this.host.describe(DEV_USER_ID, this.toolId);
  }

  health(): Promise<HealthReport> {
    return this.host.health(DEV_USER_ID, this.toolId);
  }

  invoke(tool: string, args: Record<string, unknown>): Promise<InvokeOutcome> {
    return this.host.invoke(DEV_USER_ID, this.toolId, tool, args, {
      credentials: this.credentialsFor(this.process.manifest),
    });
  }

  restart(): Promise<void> {
    return this.host.restart(DEV_USER_ID, this.toolId);
  }

  stderrTail(count?: number): string[] {
    return this.process.stderrTail(count);
  }

  async close(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.host.close();
  }

  /** --credential values, plus environment variables named by the manifest's credentials (H10). */
  private credentialsFor(manifest: DescribedManifest | undefined): Record<string, string> {
    const merged: Record<string, string> = {};
    const declared = Array.isArray(manifest?.credentials) ? manifest.credentials : [];
    for (const entry of declared) {
      const name = (entry as { name?: unknown }).name;
      if (typeof name !== "string") continue;
      const value = this.options.env[name];
      if (value !== undefined && value !== "") merged[name] = value;
    }
    return { ...merged, ...this.options.credentials };
  }

  private record(file: string, dir: "in" | "out", msg: JsonRpcMessage, meta: FrameMeta): void {
    const entry = {
      t: Math.round(performance.now() - this.startedAt),
      ts: new Date().toISOString(),
      dir,
      bytes: meta.bytes,
      ...(meta.fileTransport ? { file_transport: meta.fileTransport } : {}),
      msg: redactSecrets(msg),
    };
    appendFileSync(file, JSON.stringify(entry) + "\n");
  }
}
