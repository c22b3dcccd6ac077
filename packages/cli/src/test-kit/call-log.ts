/**
 * One Host API call as the harness saw it. `outcome` is `"ok"` when a mock or default answered,
 * `"denied"` when the ACL (or the default for an unmocked method) refused it, `"error"` when a
 * mock threw or the arguments were unusable.
 */
export interface CallRecord {
  /** `ns.method`, e.g. `tools.invoke`. */
  key: string;
  ns: string;
  method: string;
  /** The wire args object (positional forms already normalised). */
  args: Record<string, unknown>;
  outcome: "ok" | "denied" | "error";
  /** Set when `outcome` is `"ok"`: exactly what the call resolved with. */
  result?: unknown;
  /** Set otherwise: what the call rejected with. */
  error?: { code: string; message: string; details?: unknown };
  /** Milliseconds since the harness was mounted. */
  t: number;
}

/**
 * `harness.calls` (L7735). Queries take a namespace (`"storage"`) or a full `ns.method`
 * (`"tools.invoke"`): a namespace matches every method under it, a `ns.method` only that method
 * (and its dotted sub-methods, `agent.session` → `agent.session.create`).
 */
export class CallLog {
  readonly #records: CallRecord[] = [];

  /** Harness-internal: append one record. */
  record(entry: CallRecord): void {
    this.#records.push(entry);
  }

  all(): CallRecord[] {
    return [...this.#records];
  }

  byNs(prefix: string): CallRecord[] {
    return this.#records.filter((entry) => matches(entry.key, prefix));
  }

  last(): CallRecord | undefined {
    return this.#records.at(-1);
  }

  lastOf(prefix: string): CallRecord | undefined {
    return this.byNs(prefix).at(-1);
  }

  clear(): void {
    this.#records.length = 0;
  }
}

function matches(key: string, prefix: string): boolean {
  return key === prefix || key.startsWith(`${prefix}.`);
}
