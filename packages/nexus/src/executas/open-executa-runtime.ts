// The server's ExecutaRuntime: frozen versions installed under `<data>/executas`, described
// once (the manifest cached in the database), and run by one ExecutaPool whose plugins reach
// this server's own services. Every executa is untrusted: under ANNA_SANDBOX=none it runs only
// with the operator's explicit ANNA_SANDBOX_ALLOW_UNSANDBOXED opt-out.
import * as path from "node:path";
import {
  ExecutaPool,
  type ExecutaPoolOptions,
  type PoolExecuta,
  PoolFullError,
  Sandbox,
  type SandboxOptions,
  SandboxRefusedError,
  sandboxOptionsFromEnv,
} from "@anna-ai/agent";
import type {
  CredentialsService,
  DescribedManifest,
  FilesService,
  SsrfPolicy,
  StorageService,
  TokenIssuer,
  WebService,
} from "@anna-ai/executa-host";
import { type InstallLimits, versionLaunchSpec } from "@anna-ai/executa-host/install";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { CopilotServices } from "../copilot/copilot-services.js";
import { NexusError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import { runtimeLogger } from "../runtime/nexus-runtime.js";
import { binaryFetch } from "./binary-fetch.js";
import type { ExecutaRuntime, ResolvedExecuta } from "./executa-runtime.js";
import { type FrozenVersion, installRequestOf, readFrozenVersion } from "./frozen-version.js";
import { nexusGrantPolicy } from "./grant-policy.js";
import { sqlManifestCache } from "./manifest-cache.js";
import { pluginServices } from "./plugin-services.js";
import { VersionInstaller, untilAborted } from "./version-installer.js";

/** The PATH plugins see (the sandbox keeps only what it mounts); never the server's own. */
const PLUGIN_PATH = "/usr/local/bin:/usr/bin:/bin";
/** The owner of the describe processes: not a user id any Nexus user can have. */
export const DESCRIBE_USER = "nexus-describe";
/** Describes in flight at once; one more is refused with a retry hint until a slot frees. */
const DESCRIBE_MAX_PROCESSES = 4;
/** Resolved versions kept in memory; older ones are read again from disk and the database. */
export const RESOLVED_CACHE_MAX_ENTRIES = 1_024;

export interface OpenExecutaRuntimeOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  /** The server's data folder (absolute): installs go to `executas/`, sandboxes to `sandbox/`. */
  dataDir: string;
  /** Read for ANNA_SANDBOX, ANNA_SANDBOX_ALLOW_UNSANDBOXED, ANNA_SANDBOX_NETWORK. */
  env: NodeJS.ProcessEnv;
  /** Replaces the sandbox from `env` (tests; an operator's config file). */
  sandbox?: SandboxOptions | Sandbox;
  /** The origins in this server's own binary download URLs. */
  selfOrigins: () => readonly string[];
  copilot?: CopilotServices;
  storage?: { kv: StorageService; files: FilesService };
  /** `web/*` for app invokes under the user's web_grant (server-web.ts). */
  web?: WebService;
  /** Mints the per-invoke tokens (H15): the server's keyring. */
  tokens?: TokenIssuer;
  /**
   * Per-invoke `context.credentials` (H10): the user's values for the tool (the credential vault's
   * `forInvoke`). Absent, invokes carry none.
   */
  credentials?: ExecutaPoolOptions["credentials"];
  /** `credentials/*` on the user's connected accounts (platform-credentials-service.ts). */
  platformCredentials?: CredentialsService;
  /** Which credential names map to which OAuth provider (the operator's registry). */
  credentialAliases?: ExecutaPoolOptions["credentialAliases"];
  logger: Logger;
  clock: () => number;
  /** Remote asset downloads (default global fetch) and their SSRF policy. */
  fetch?: typeof globalThis.fetch;
  ssrf?: SsrfPolicy;
  /** Platform key for `binary_urls`; default this machine's. */
  platform?: string;
  installLimits?: Partial<InstallLimits>;
  pool?: Pick<ExecutaPoolOptions, "maxProcesses" | "idleMs" | "timeouts" | "restart">;
}

export function openExecutaRuntime(options: OpenExecutaRuntimeOptions): ExecutaRuntime {
  const { db, logger, clock } = options;
  const sandbox =
    options.sandbox instanceof Sandbox
      ? options.sandbox
      : new Sandbox(
          options.sandbox ??
            sandboxOptionsFromEnv(path.join(options.dataDir, "sandbox"), options.env),
        );
  const hostLogger = runtimeLogger(logger);
  const pool = new ExecutaPool({
    sandbox,
    services: pluginServices(options),
    grants: nexusGrantPolicy(db),
    ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
    // Asked per invoke, never put in the process environment: one process may outlive a change
    // of the user's values, and the spec passes them per request (H10).
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    ...(options.credentialAliases === undefined
      ? {}
      : { credentialAliases: options.credentialAliases }),
    logger: hostLogger,
    ...options.pool,
  });
  // Describes run in their own small pool, so a describe never takes a user's process slot and
  // its process goes as soon as it answered.
  const describer = new ExecutaPool({
    sandbox,
    maxProcesses: DESCRIBE_MAX_PROCESSES,
    idleMs: 0,
    logger: hostLogger,
    ...(options.pool?.timeouts === undefined ? {} : { timeouts: options.pool.timeouts }),
  });
  const installer = new VersionInstaller({
    home: path.join(options.dataDir, "executas"),
    fetch: binaryFetch({
      db,
      blobs: options.blobs,
      selfOrigins: options.selfOrigins,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.ssrf === undefined ? {} : { ssrf: options.ssrf }),
    }),
    ...(options.platform === undefined ? {} : { platform: options.platform }),
    ...(options.installLimits === undefined ? {} : { limits: options.installLimits }),
  });
  const manifests = sqlManifestCache(db);
  const resolved = new Map<number, Promise<ResolvedExecuta>>();

  async function describe(v: FrozenVersion, executa: PoolExecuta): Promise<DescribedManifest> {
    const cached = await manifests.get(v.executaVersionId);
    if (cached !== undefined) return cached;
    let manifest: DescribedManifest;
    try {
      manifest = await describer.describe(DESCRIBE_USER, executa);
    } catch (err) {
      if (err instanceof PoolFullError) {
        throw new NexusError(
          "unavailable",
          `${v.toolId} ${v.version} waits to be described: ${DESCRIBE_MAX_PROCESSES} other executas are being described right now; retry in a moment`,
          { cause: err, retryAfterS: 1, details: { tool_id: v.toolId, stage: "describe" } },
        );
      }
      if (err instanceof SandboxRefusedError) {
        throw new NexusError(
          "unavailable",
          `${v.toolId} ${v.version} cannot run here: ${err.message}`,
          {
            cause: err,
            details: { tool_id: v.toolId, version: v.version, stage: "sandbox" },
          },
        );
      }
      throw new NexusError(
        "executa_not_installable",
        `${v.toolId} ${v.version} is installed but did not describe itself: ${(err as Error).message}; ` +
          "the publisher's binary must answer `describe` on stdio (try it with `anna-app executa dev`)",
        { cause: err, details: { tool_id: v.toolId, version: v.version, stage: "describe" } },
      );
    }
    await manifests.put(v.executaVersionId, manifest, clock());
    logger.log("info", "executa described", {
      tool_id: v.toolId,
      version: v.version,
      executa_version_id: v.executaVersionId,
      tools: manifest.tools.length,
    });
    return manifest;
  }

  async function resolve(toolId: string, executaVersionId: number): Promise<ResolvedExecuta> {
    const v = await readFrozenVersion(db, toolId, executaVersionId);
    installRequestOf(v); // a skill or a package-manager executa is refused before any work
    const dir = await installer.install(v);
    const spec = await versionLaunchSpec(dir, { env: { PATH: PLUGIN_PATH } });
    const executa: PoolExecuta = { spec, trusted: false };
    const manifest = await describe(v, executa);
    return { ...executa, manifest, toolId, version: v.version, executaVersionId };
  }

  return {
    pool,
    prepare(toolId, executaVersionId, signal) {
      let pending = resolved.get(executaVersionId);
      if (pending === undefined) {
        pending = resolve(toolId, executaVersionId);
        resolved.set(executaVersionId, pending);
        // A failure is not remembered: the next prepare tries again (a fixed upload, a network back).
        const mine = pending;
        mine.catch(() => {
          if (resolved.get(executaVersionId) === mine) resolved.delete(executaVersionId);
        });
        if (resolved.size > RESOLVED_CACHE_MAX_ENTRIES) {
          const oldest = resolved.keys().next().value;
          if (oldest !== undefined) resolved.delete(oldest);
        }
      }
      // A prepare naming another tool for this version id is refused, not served the cached one.
      const checked = pending.then((r) => {
        if (r.toolId === toolId) return r;
        throw new NexusError(
          "not_found",
          `executa version ${executaVersionId} belongs to ${r.toolId}, not ${toolId}`,
        );
      });
      return signal === undefined ? checked : untilAborted(checked, signal);
    },
    async close() {
      installer.close();
      await describer.close();
      await pool.close();
    },
  };
}
