import { currentInvoke } from "./invoke-binding.js";
import { notifyHost } from "./reverse/channel.js";
import type { ProgressType } from "./tool-context.js";

/**
 * Sends `executa/progress` for the bound invoke (inside a handler or `bindInvoke`), or for
 * `options.invokeId`. The host matches it by `context.invoke_id` only and drops it otherwise
 * (pitfall 13). Returns false when nothing could be sent.
 */
export function emitProgress(
  type: ProgressType,
  data: unknown = {},
  options: { invokeId?: string } = {},
): boolean {
  const bound = currentInvoke();
  const invoke =
    options.invokeId === undefined
      ? bound
      : { invokeId: options.invokeId, tool: bound?.tool ?? "" };
  if (invoke === undefined || invoke.invokeId === "") return false;
  return notifyHost("executa/progress", { type, data }, { invoke });
}
