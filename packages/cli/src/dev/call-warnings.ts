// Calls that succeed but do not do what their author may think, warned about in the panel and the
// terminal. The harness's storage is the legacy `runtime_state` backend, which has no optimistic
// concurrency: `if_match` is accepted and ignored, so a write guarded by it always lands.

/** The warning for a call, or `undefined` when there is nothing to say. */
export function callWarning(ns: string, method: string, args: unknown): string | undefined {
  if (ns !== "storage" || (method !== "set" && method !== "delete")) return undefined;
  const ifMatch = (args as { if_match?: unknown } | null | undefined)?.if_match;
  if (ifMatch === undefined || ifMatch === null) return undefined;
  return (
    `if_match is ignored: the legacy storage backend (runtime_state) has no optimistic ` +
    `concurrency, so this ${method} ${method === "set" ? "overwrote" : "removed"} the key whatever its etag; ` +
    `on the APS backend a stale etag fails with precondition_failed`
  );
}
