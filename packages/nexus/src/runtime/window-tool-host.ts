// `tools.*` from an app's window on the server: the executa the user has installed (the app's
// install put it in `user_executas`), prepared by the same executa runtime and run in the same
// pool as the chat turns, so a window and a turn share one warm process per (user, tool) and a
// session a turn started is one the window can finish. Without this the dispatcher has no tool
// host and every window's `tools.invoke` answers `executa_unavailable`.
import { HostApiError, type ToolHost } from "@anna-ai/app-core";
import type { DescribedManifest } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { ExecutaRuntime } from "../executas/executa-runtime.js";

/** Manifests kept for the tools' declared timeouts; one per tool id, oldest dropped first. */
export const WINDOW_TOOL_MANIFESTS_MAX = 256;

export function executaToolHost(db: Kysely<Database>, runtime: ExecutaRuntime): ToolHost {
  const manifests = new Map<string, DescribedManifest>();
  const remember = (toolId: string, manifest: DescribedManifest) => {
    manifests.delete(toolId);
    manifests.set(toolId, manifest);
    if (manifests.size > WINDOW_TOOL_MANIFESTS_MAX) {
      manifests.delete(manifests.keys().next().value as string);
    }
  };
  return {
    // Every tool is launched on demand, so each is "there" to try; invoke says when it is not
    // installed. The manifest, once described, gives the tool's declared timeout.
    get(_userId, toolId) {
      const manifest = manifests.get(toolId);
      return manifest === undefined ? {} : { manifest };
    },
    async invoke(userId, toolId, tool, args, options = {}) {
      const row = await db
        .selectFrom("user_executas")
        .innerJoin("executas", "executas.id", "user_executas.executa_id")
        .select(["user_executas.enabled", "user_executas.executa_version_id"])
        .where("user_executas.user_id", "=", Number(userId))
        .where("executas.tool_id", "=", toolId)
        .executeTakeFirst();
      if (row === undefined || row.enabled !== 1 || row.executa_version_id === null) {
        const why =
          row === undefined
            ? "is not installed for this user (installing the app installs it)"
            : row.enabled !== 1
              ? "is disabled for this user (enable it in My apps)"
              : "has an install that names no version (install the app again)";
        throw new HostApiError("executa_unavailable", `executa ${JSON.stringify(toolId)} ${why}`, {
          tool_id: toolId,
        });
      }
      let executa;
      try {
        executa = await runtime.prepare(toolId, row.executa_version_id, options.signal);
      } catch (err) {
        options.signal?.throwIfAborted();
        throw new HostApiError(
          "executa_unavailable",
          `executa ${JSON.stringify(toolId)} cannot run here: ${(err as Error).message}`,
          { tool_id: toolId },
          { cause: err },
        );
      }
      remember(toolId, executa.manifest);
      return runtime.pool.invoke(userId, executa, tool, args, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.app === undefined ? {} : { app: options.app }),
      });
    },
  };
}
