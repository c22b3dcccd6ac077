// One plugin under `executa dev`: the host pool with a single registered process, the reverse-RPC
// router built from the flags, and the observers the REPL, --trace and --record hang off.
import type { FrameMeta, JsonRpcMessage, Redactor } from "@anna-ai/jsonrpc";
import {
  ExecutaHost,
  type DescribedManifest,
  type ExecutaHostOptions,
  type HealthReport,
  type InvokeOutcome,
  type LaunchSpec,
  type PluginProcess,
} from "@anna-ai/executa-host";
import { SessionRecorder } from "./session-record.js";

export const DEV_USER_ID = "dev-user";
/** Process warnings kept for the banner; a plugin that warns forever must not grow memory. */
const MAX_KEPT_WARNINGS = 20;

export interface DevSessionOptions {
  spec: LaunchSpec;
  router: ExecutaHostOptions["router"];
  /** The user's environment for the plugin (HOME and credentials pass through, H10). */
  env: NodeJS.ProcessEnv;
  /** Credentials from --credential, merged over declared names found in `env`. */
  credentials: Record<string, string>;
  /** JSONL transcript of every frame (redacted). */
  recordPath?: string;
  /**
   * What the transcript, the trace and the plugin's stderr lines hide: the one redaction list
   * plus secret values (`--credential`, connected accounts' tokens); per-invoke credentials are
   * added as they are sent.
   */
  redactor: Redactor;
}

export interface DevSessionListeners {
  frame?(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void;
  stderr?(line: string): void;
}

/** Where a credential's value comes from: `--credential`, the environment, the inspector. */
export type CredentialSource = "flag" | "env" | "page" | "unset";

export class DevSession {
  readonly host: ExecutaHost;
  readonly process: PluginProcess;
  private readonly recorder: SessionRecorder | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  /** Credentials set (a value) or withdrawn (null) from the inspector, over flags and env. */
  private readonly pageCredentials = new Map<string, string | null>();
  /** Warnings the process raised (e.g. "speaks protocol 1.1"), for the REPL banner. */
  readonly warnings: string[] = [];

  constructor(
    private readonly options: DevSessionOptions,
    listeners: DevSessionListeners,
  ) {
    this.host = new ExecutaHost({
      env: options.env,
      ...(options.router ? { router: options.router } : {}),
    });
    this.process = this.host.register(options.spec, { userId: DEV_USER_ID, env: options.env });
    this.recorder =
      options.recordPath === undefined
        ? undefined
        : new SessionRecorder(options.recordPath, options.redactor);
    const recorder = this.recorder;
    this.unsubscribe.push(
      this.process.on("frame", (e) => {
        listeners.frame?.(e.direction, e.message, e.meta);
        recorder?.write(e.direction, e.message, e.meta);
      }),
      this.process.on("stderr", (e) => listeners.stderr?.(e.line)),
      this.process.on("warning", (e) => {
        if (this.warnings.length < MAX_KEPT_WARNINGS) this.warnings.push(e.message);
      }),
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

  /** `signal` cancels it: the host stops waiting and sends the plugin `executa/cancel`. */
  invoke(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    /** The id to send the plugin (the inspector matches the invoke's reverse calls by it). */
    invokeId?: string,
  ): Promise<InvokeOutcome> {
    const credentials = this.credentialsFor(this.process.manifest);
    this.options.redactor.add(Object.values(credentials));
    return this.host.invoke(DEV_USER_ID, this.toolId, tool, args, {
      credentials,
      ...(signal ? { signal } : {}),
      ...(invokeId ? { invokeId } : {}),
    });
  }

  restart(): Promise<void> {
    return this.host.restart(DEV_USER_ID, this.toolId);
  }

  stderrTail(count?: number): string[] {
    return this.process.stderrTail(count);
  }

  async close(): Promise<void> {
    try {
      await this.host.close();
    } finally {
      for (const off of this.unsubscribe.splice(0)) off();
      this.recorder?.close();
    }
  }

  /**
   * Sets a credential for the next invokes (the inspector's credentials panel), over the flags
   * and the environment; `null` withdraws it, flags and environment included.
   */
  setCredential(name: string, value: string | null): void {
    if (value !== null) this.options.redactor.add([value]);
    this.pageCredentials.set(name, value);
  }

  /** Each declared credential (and any other one given) with where its value comes from. */
  credentialSources(): {
    name: string;
    display_name?: string;
    required: boolean;
    source: CredentialSource;
  }[] {
    const declared = Array.isArray(this.process.manifest?.credentials)
      ? (this.process.manifest.credentials as {
          name?: unknown;
          display_name?: unknown;
          required?: unknown;
        }[])
      : [];
    const names = new Map<string, { display_name?: string; required: boolean }>();
    for (const entry of declared) {
      if (typeof entry.name !== "string") continue;
      names.set(entry.name, {
        ...(typeof entry.display_name === "string" ? { display_name: entry.display_name } : {}),
        required: entry.required === true,
      });
    }
    for (const name of [...Object.keys(this.options.credentials), ...this.pageCredentials.keys()]) {
      if (!names.has(name)) names.set(name, { required: false });
    }
    return [...names].map(([name, info]) => {
      const page = this.pageCredentials.get(name);
      const source: CredentialSource =
        page === null
          ? "unset"
          : page !== undefined
            ? "page"
            : this.options.credentials[name] !== undefined
              ? "flag"
              : this.options.env[name]
                ? "env"
                : "unset";
      return { name, ...info, source };
    });
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
    const all: Record<string, string> = { ...merged, ...this.options.credentials };
    for (const [name, value] of this.pageCredentials) {
      if (value === null) delete all[name];
      else all[name] = value;
    }
    return all;
  }
}
