// Getting a turn's executas ready through the runtime: a few at once (a user with many plugins
// does not wait on them one by one, and one turn cannot start every install on the server), and
// stopped by the turn's signal. One that fails is left out of the turn with a notice; it never
// fails the turn.
import type { InstalledExecuta } from "./installed-for-turn.js";
import type { ExecutaRuntime, ResolvedExecuta } from "../executas/executa-runtime.js";

/** Executas one turn prepares at once. */
export const PREPARE_CONCURRENCY = 4;

export interface PreparedExecutas {
  /** By tool id: what the pool runs and the manifest its tools come from. */
  ready: Map<string, ResolvedExecuta>;
  /** By tool id: why it could not be prepared, for the user. */
  failed: Map<string, string>;
}

export async function prepareExecutas(
  runtime: ExecutaRuntime | undefined,
  wanted: readonly InstalledExecuta[],
  signal: AbortSignal,
  concurrency = PREPARE_CONCURRENCY,
): Promise<PreparedExecutas> {
  const out: PreparedExecutas = { ready: new Map(), failed: new Map() };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < wanted.length; i = next++) {
      signal.throwIfAborted();
      const e = wanted[i] as InstalledExecuta;
      if (runtime === undefined) {
        out.failed.set(e.toolId, "this server runs no plugins (no executa runtime is configured)");
      } else if (e.executaVersionId === null) {
        out.failed.set(
          e.toolId,
          "its install names no version; install it again (PUT /api/v1/me/executas/{tool_id})",
        );
      } else {
        try {
          out.ready.set(e.toolId, await runtime.prepare(e.toolId, e.executaVersionId, signal));
        } catch (err) {
          signal.throwIfAborted();
          out.failed.set(e.toolId, err instanceof Error ? err.message : String(err));
        }
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency, wanted.length));
  await Promise.all(Array.from({ length: workers }, worker));
  signal.throwIfAborted();
  return out;
}
