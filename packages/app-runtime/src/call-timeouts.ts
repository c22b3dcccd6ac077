/** How long a call waits when neither the call nor `connect()` says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * Per-namespace defaults (R101, `DEFAULT_TIMEOUTS_BY_NS`): agent runs ack quickly but creating a
 * session can be slow; LLM completions and tool invokes ride long upstream calls.
 */
export const DEFAULT_TIMEOUTS_BY_NS: Readonly<Record<string, number>> = Object.freeze({
  agent: 300_000,
  llm: 180_000,
  tools: 70_000,
  web: 60_000,
});

/**
 * The host waits `timeoutMs + 2 s` grace for `tools.invoke` (L6399); the SDK waits a little
 * longer still so the host's `tool_timeout` (with its details) arrives before our own `timeout`.
 */
export const TOOL_INVOKE_WAIT_MARGIN_MS = 5_000;

/** The effective wait for one call: explicit option, then namespace default, then the connection's. */
export function callTimeoutMs(
  ns: string,
  method: string,
  args: Record<string, unknown>,
  explicitMs: number | undefined,
  connectionDefaultMs: number,
): number {
  if (explicitMs !== undefined && Number.isFinite(explicitMs) && explicitMs > 0) return explicitMs;
  const base = DEFAULT_TIMEOUTS_BY_NS[ns] ?? connectionDefaultMs;
  const requested = args["timeoutMs"];
  if (
    ns === "tools" &&
    method === "invoke" &&
    typeof requested === "number" &&
    Number.isFinite(requested)
  ) {
    return Math.max(base, requested + TOOL_INVOKE_WAIT_MARGIN_MS);
  }
  return base;
}
