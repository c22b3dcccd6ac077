/**
 * One family per reverse-RPC surface, plus `protocol` (JSON-RPC 2.0 itself) and `host`
 * (conditions the host produces on its own: timeouts, exits, correlation failures).
 * `files/*` shares the storage codes and has no family of its own.
 */
export type ErrorFamily =
  | "protocol"
  | "host"
  | "sampling"
  | "storage"
  | "agent"
  | "image"
  | "upload"
  | "embeddings"
  | "credentials"
  | "web";

/**
 * A catalogued error. On the wire it becomes
 * `{ code, message, data: { errorCode } }` (JSON-RPC error object, H12).
 */
export interface CatalogEntry {
  /** JSON-RPC numeric code. Unique within a family, except in `host` where several conditions share -32000/-32602. */
  readonly code: number;
  /** Symbolic name sent as `error.data.errorCode`; unique across the whole catalog. */
  readonly errorCode: string;
  readonly family: ErrorFamily;
  /** Default `error.message` (the short form the platform sends, e.g. `not_negotiated`). */
  readonly message: string;
  /** Whether the same call may succeed if retried (with backoff) within the same invoke. */
  readonly retryable: boolean;
  /** Lowercase name the developer harness reports for this condition (e.g. `sampling_disabled`). */
  readonly alias?: string;
  /** Other names the spec uses for the same condition; `findByErrorCode` resolves them too. */
  readonly aka?: readonly string[];
}

/** Builds a frozen family table; keeps each family file a plain list of facts. */
export function defineFamily<K extends string>(
  family: ErrorFamily,
  entries: Record<K, Omit<CatalogEntry, "family">>,
): Readonly<Record<K, CatalogEntry>> {
  const out = {} as Record<K, CatalogEntry>;
  for (const key of Object.keys(entries) as K[]) {
    const entry = entries[key];
    out[key] = Object.freeze({
      ...entry,
      family,
      ...(entry.aka ? { aka: Object.freeze([...entry.aka]) } : {}),
    });
  }
  return Object.freeze(out);
}
