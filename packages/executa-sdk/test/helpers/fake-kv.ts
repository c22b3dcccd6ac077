// An in-memory stand-in for the host's storage/* service, with the semantics plugins rely on:
// etags, if_match → -32023, misses as {value:null, exists:false}, prefix listing.
import { createHash } from "node:crypto";
import type { PluginClient, ReverseAnswer } from "@anna-ai/executa-test";

interface Entry {
  value: unknown;
  etag: string;
}

export class FakeKv {
  readonly entries = new Map<string, Entry>();
  /** Every storage call in arrival order, for assertions. */
  readonly calls: { method: string; params: Record<string, unknown> }[] = [];
  /** Runs after a get has been answered: lets a test play a concurrent writer. */
  afterGet: ((scope: string, key: string) => void) | undefined;
  private generation = 0;

  /** Registers storage/get|set|delete|list on the raw plugin host. */
  attach(plugin: PluginClient): void {
    plugin.onRequest("storage/get", (params) => ({ result: this.get(params) }));
    plugin.onRequest("storage/set", (params) => this.set(params));
    plugin.onRequest("storage/delete", (params) => ({ result: this.delete(params) }));
    plugin.onRequest("storage/list", (params) => ({ result: this.list(params) }));
  }

  /** Changes a key behind the plugin's back, as a concurrent writer would. */
  touch(scope: string, key: string, value: unknown): void {
    this.entries.set(`${scope}:${key}`, { value, etag: this.nextEtag(value) });
  }

  private nextEtag(value: unknown): string {
    this.generation += 1;
    return createHash("sha256")
      .update(`${this.generation}:${JSON.stringify(value)}`)
      .digest("hex")
      .slice(0, 32);
  }

  private record(method: string, params: Record<string, unknown>): string {
    this.calls.push({ method, params });
    return `${String(params.scope)}:${String(params.key)}`;
  }

  private get(params: Record<string, unknown>): unknown {
    const entry = this.entries.get(this.record("storage/get", params));
    const answer =
      entry === undefined
        ? { value: null, exists: false, etag: null }
        : { value: entry.value, exists: true, etag: entry.etag };
    this.afterGet?.(String(params.scope), String(params.key));
    return answer;
  }

  private set(params: Record<string, unknown>): ReverseAnswer {
    const id = this.record("storage/set", params);
    const current = this.entries.get(id);
    const ifMatch = params.if_match;
    if (typeof ifMatch === "string" && current?.etag !== ifMatch) {
      return {
        error: {
          code: -32023,
          message: "precondition failed",
          data: { errorCode: "STORAGE_PRECONDITION_FAILED" },
        },
      };
    }
    const etag = this.nextEtag(params.value);
    this.entries.set(id, { value: params.value, etag });
    return {
      result: {
        etag,
        generation: this.generation,
        size_bytes: JSON.stringify(params.value).length,
      },
    };
  }

  private delete(params: Record<string, unknown>): unknown {
    return { deleted: this.entries.delete(this.record("storage/delete", params)) };
  }

  private list(params: Record<string, unknown>): unknown {
    this.calls.push({ method: "storage/list", params });
    const prefix = `${String(params.scope)}:${typeof params.prefix === "string" ? params.prefix : ""}`;
    const limit = typeof params.limit === "number" ? params.limit : 100;
    const items = [...this.entries.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .sort(([a], [b]) => a.localeCompare(b))
      .slice(0, limit)
      .map(([id, entry]) => ({ key: id.slice(id.indexOf(":") + 1), etag: entry.etag }));
    return { items, next_cursor: null };
  }
}
