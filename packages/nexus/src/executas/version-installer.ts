// Installs frozen executa versions under the server's own executa home (`<data>/executas`, never
// a user's `~/.anna`): `tools/{tool_id}/v{version}/`, one folder per version shared by every
// user who runs it. A version already on disk (a restart, a second prepare) is reused as is; the
// pipeline commits a version folder whole or not at all, so its INSTALL.json means "complete".
import { mkdir } from "node:fs/promises";
import * as path from "node:path";
import {
  InstallError,
  type InstallLimits,
  installExecuta,
  readInstallRecord,
  sanitizeToolId,
  versionDirName,
} from "@anna-ai/executa-host/install";
import { NexusError } from "../core/errors.js";
import { type FrozenVersion, installRequestOf } from "./frozen-version.js";

/**
 * Old version folders kept per tool when a newer one installs. The pipeline's default (1) suits
 * one person's machine; a server runs each user's installed version, so several stay in use.
 */
export const SERVER_KEEP_VERSIONS = 16;

export interface VersionInstallerOptions {
  /** `<data>/executas`. */
  home: string;
  fetch: typeof globalThis.fetch;
  /** Platform key to resolve `binary_urls` for; default this machine's. */
  platform?: string;
  limits?: Partial<InstallLimits>;
}

export function versionDir(home: string, toolId: string, version: string): string {
  return path.join(home, "tools", sanitizeToolId(toolId), versionDirName(version));
}

function asNexusError(v: FrozenVersion, err: unknown): unknown {
  if (!(err instanceof InstallError)) return err;
  const label = `cannot install ${v.toolId} ${v.version} on this server`;
  const details = { tool_id: v.toolId, version: v.version, install_error: err.code };
  if (err.code === "DOWNLOAD_FAILED" || err.code === "INTEGRITY_MISMATCH") {
    return new NexusError("upstream_error", `${label}: ${err.message}`, { cause: err, details });
  }
  return new NexusError("executa_not_installable", `${label}: ${err.message}`, {
    cause: err,
    details,
  });
}

export class VersionInstaller {
  private readonly options: VersionInstallerOptions;
  /** Single flight: concurrent prepares of one version share one install. */
  private readonly running = new Map<string, Promise<string>>();
  private readonly closing = new AbortController();

  constructor(options: VersionInstallerOptions) {
    this.options = options;
  }

  /**
   * The version's folder, installing it first when it is not on disk yet. `signal` gives up this
   * caller's wait only: the shared install goes on for the others (and stops at `close`).
   */
  install(v: FrozenVersion, signal?: AbortSignal): Promise<string> {
    const key = JSON.stringify([v.toolId, v.version]);
    let pending = this.running.get(key);
    if (pending === undefined) {
      pending = this.installOnce(v).finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return signal === undefined ? pending : untilAborted(pending, signal);
  }

  /** Cancels installs in progress (their staging folders are removed by the pipeline). */
  close(): void {
    this.closing.abort(new Error("the executa runtime is closing"));
  }

  private async installOnce(v: FrozenVersion): Promise<string> {
    const signal = this.closing.signal;
    const { home } = this.options;
    const dir = versionDir(home, v.toolId, v.version);
    if ((await readInstallRecord(dir)) !== undefined) return dir;
    const request = installRequestOf(v);
    await mkdir(home, { recursive: true, mode: 0o755 });
    try {
      const result = await installExecuta(request, {
        home,
        // Only what the pipeline reads; the server's own environment never picks its layout.
        env: { EXECUTA_KEEP_VERSIONS: String(SERVER_KEEP_VERSIONS) },
        fetch: this.options.fetch,
        signal,
        limits: this.options.limits,
        ...(this.options.platform === undefined ? {} : { platform: this.options.platform }),
        // The `bin/{name}` shims mean nothing on a server; one folder per tool keeps two tools
        // with the same executable name from refusing each other.
        binDir: path.join(home, "shims", sanitizeToolId(v.toolId)),
        force: true,
      });
      return result.dir;
    } catch (err) {
      throw asNexusError(v, err);
    }
  }
}

/** `pending`, or a rejection as soon as `signal` aborts (the work behind `pending` goes on). */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("the prepare was cancelled");
}
