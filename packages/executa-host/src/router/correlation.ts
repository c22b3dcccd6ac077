// Which invoke a reverse call belongs to (T12). Plugins name it in `context.invoke_id` (newer
// SDKs), `metadata.executa_invoke_id` (every SDK) or `metadata.invoke_id` (some apps); `""`
// means absent (SDKs send it outside an invoke). A top-level `invoke_id` is accepted last.
// Hot path: no allocation beyond the lookups.

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function field(record: unknown, key: string): unknown {
  return typeof record === "object" && record !== null
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/** The invoke id a reverse request names, or undefined when it names none. */
export function namedInvokeId(params: unknown): string | undefined {
  const context = field(params, "context");
  const metadata = field(params, "metadata");
  return (
    nonEmpty(field(context, "invoke_id")) ??
    nonEmpty(field(metadata, "executa_invoke_id")) ??
    nonEmpty(field(metadata, "invoke_id")) ??
    nonEmpty(field(params, "invoke_id"))
  );
}

/** Progress notifications correlate only through `context.invoke_id` (T29). */
export function progressInvokeId(params: unknown): string | undefined {
  return nonEmpty(field(field(params, "context"), "invoke_id"));
}

export type Correlation<T> =
  | { kind: "invoke"; invoke: T }
  | { kind: "unknown"; invokeId: string; finished: boolean }
  | { kind: "missing"; active: number }
  | { kind: "none-active" };

/**
 * Apply the T12 table: a named active invoke wins; a named unknown or finished one is refused;
 * with no name, the single active invoke is used and several are refused ("never guess").
 */
export function correlate<T>(
  params: unknown,
  active: ReadonlyMap<string, T>,
  isFinished: (invokeId: string) => boolean,
): Correlation<T> {
  const invokeId = namedInvokeId(params);
  if (invokeId !== undefined) {
    const invoke = active.get(invokeId);
    return invoke !== undefined
      ? { kind: "invoke", invoke }
      : { kind: "unknown", invokeId, finished: isFinished(invokeId) };
  }
  if (active.size === 1) {
    for (const invoke of active.values()) return { kind: "invoke", invoke };
  }
  return active.size === 0 ? { kind: "none-active" } : { kind: "missing", active: active.size };
}
