// An ExecutaRuntime for tests: each Hub tool id is served from a plugin folder of the checkout
// (examples/executas/…) instead of an install from the blob store; the process, the pool, the
// sandbox rules and the reverse RPCs are the real ones. It stands where the server's runtime
// will, behind the same interface, so a test swaps one for the other without other changes.
import { ExecutaPool, type ExecutaPoolOptions } from "@anna-ai/agent";
import { detectLaunchSpec } from "@anna-ai/executa-host";
import { NexusError } from "../../src/core/errors.js";
import type { ExecutaRuntime, ResolvedExecuta } from "../../src/executas/executa-runtime.js";

/** The pool user `describe` runs as: manifests are per version, not per user. */
const DESCRIBE_USER = "runtime-describe";

export interface FolderExecutaRuntime extends ExecutaRuntime {
  /** Every prepare call, in order (tool id and version id). */
  readonly prepared: { toolId: string; executaVersionId: number }[];
}

export function folderExecutaRuntime(options: {
  /** Hub tool id → plugin folder; read at each prepare. */
  folders: ReadonlyMap<string, string>;
  pool: ExecutaPoolOptions;
  /** Trusted plugins may run under sandbox mode "none". Default true. */
  trusted?: boolean;
  /** Tool ids whose prepare rejects, as a broken install would. */
  broken?: ReadonlySet<string>;
  /** Tool ids whose prepare never finishes (a stuck download) until its signal aborts. */
  stuck?: ReadonlySet<string>;
}): FolderExecutaRuntime {
  const pool = new ExecutaPool(options.pool);
  const cache = new Map<string, Promise<ResolvedExecuta>>();
  const prepared: FolderExecutaRuntime["prepared"] = [];

  async function resolve(toolId: string, executaVersionId: number): Promise<ResolvedExecuta> {
    const dir = options.folders.get(toolId);
    if (dir === undefined || options.broken?.has(toolId)) {
      throw new NexusError(
        "unavailable",
        `no plugin folder is configured for ${toolId} in this test runtime`,
      );
    }
    const detected = await detectLaunchSpec(dir);
    const executa = {
      spec: { ...detected, toolId },
      trusted: options.trusted ?? true,
    };
    const manifest = await pool.describe(DESCRIBE_USER, executa);
    return { ...executa, toolId, version: manifest.version ?? "0.0.0", executaVersionId, manifest };
  }

  return {
    pool,
    prepared,
    prepare(toolId, executaVersionId, signal) {
      signal?.throwIfAborted();
      prepared.push({ toolId, executaVersionId });
      if (options.stuck?.has(toolId)) {
        return new Promise((_, reject) =>
          signal?.addEventListener("abort", () => reject(signal.reason as Error), { once: true }),
        );
      }
      const key = `${toolId}@${executaVersionId}`;
      let found = cache.get(key);
      if (found === undefined) {
        found = resolve(toolId, executaVersionId);
        // A failure is not cached: the next turn tries again, as a real install would.
        found.catch(() => cache.delete(key));
        cache.set(key, found);
      }
      return found;
    },
    close: () => pool.close(),
  };
}
