// The seam between chat turns and the plugins a user installed: turn assembly asks for an
// executa version by (tool_id, executa_versions.id) and gets it installed in this server's data
// folder, described, and ready for the pool. The runtime owns install, describe caching and the
// process pool; turn assembly owns which executas a turn may call.
import type { ExecutaPool, PoolExecuta } from "@anna-ai/agent";
import type { DescribedManifest } from "@anna-ai/executa-host";

/** One executa version ready to run: what the pool launches, and its tools as described. */
export interface ResolvedExecuta extends PoolExecuta {
  toolId: string;
  version: string;
  executaVersionId: number;
  /** The `describe` result of this version (cached per version; never re-asked per turn). */
  manifest: DescribedManifest;
}

export interface ExecutaRuntime {
  /** Runs every user's plugins: one warm process per (user, tool_id), sandboxed. */
  readonly pool: ExecutaPool;
  /**
   * The version installed under this server's data folder (installed on first use; concurrent
   * calls share one install), with its manifest. Rejects with a `NexusError` that says what is
   * missing (no binary for this platform, a package-manager distribution, a failed describe).
   */
  prepare(toolId: string, executaVersionId: number, signal?: AbortSignal): Promise<ResolvedExecuta>;
  /** Stops every plugin process. */
  close(): Promise<void>;
}
