// `max_calls` of a storage_token (L2366, R39: 200 storage + files calls per invoke) counted on
// the server, so a plugin that holds its token cannot go past the budget by calling Nexus
// itself instead of through its host. Counts live in this process until the token expires: a
// second Nexus node counts apart (at most nodes × max_calls), which the host's own count bounds.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { NexusError } from "../core/errors.js";

/** Prune expired entries once the map holds this many. */
const PRUNE_AT = 10_000;

export class InvokeCallBudget {
  readonly #calls = new Map<string, { count: number; expiresAtMs: number }>();

  /** Counts one call of the invoke `key`; throws rate_limited past `maxCalls`. */
  charge(key: string, maxCalls: number, expiresAtMs: number, now: number): void {
    let entry = this.#calls.get(key);
    if (entry === undefined || entry.expiresAtMs <= now) {
      if (this.#calls.size >= PRUNE_AT) this.#prune(now);
      entry = { count: 0, expiresAtMs };
      this.#calls.set(key, entry);
    }
    if (entry.count >= maxCalls) {
      throw new NexusError(
        "rate_limited",
        `storage call limit reached: ${maxCalls} storage/files calls per invoke (max_calls of this storage_token)`,
        { details: { rpc_code: STORAGE_ERRORS.RATE_LIMITED.code, max_calls: maxCalls } },
      );
    }
    entry.count++;
  }

  #prune(now: number): void {
    for (const [k, e] of this.#calls) if (e.expiresAtMs <= now) this.#calls.delete(k);
  }
}
