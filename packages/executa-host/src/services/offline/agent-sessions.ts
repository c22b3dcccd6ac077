// The offline agent's session table. It plays both the host's token cache (bounded LRU keyed by
// `app_session_uuid`, owner-checked, T21) and the server-side session rows (ttl, label, history),
// so a uuid lives exactly as long as the real pair would let it: until `delete`, expiry, eviction
// or the end of the process (a restart invalidates every uuid, L2170).
import type { AgentHistoryMessage, AgentSubmode } from "@anna-ai/app-schema";

/** Entries the host's token cache keeps (T21: "bounded LRU, ~4096 entries"). */
export const AGENT_SESSION_CACHE_MAX_ENTRIES = 4096;

export interface AgentSessionOwner {
  userId: string;
  toolId: string;
}

export interface AgentSessionRecord extends AgentSessionOwner {
  uuid: string;
  /** Creation order within the service, to order sessions created in the same millisecond. */
  seq: number;
  threadId: string;
  kind: string;
  submode: AgentSubmode;
  fixedClientId: string | null;
  label: string;
  grantedTools: string[];
  systemPrompt?: string;
  ttlSeconds: number;
  createdAtMs: number;
  lastActiveAtMs: number;
  expiresAtMs: number;
  maxLifetimeAtMs: number;
  /** MCP-shaped transcript, oldest first. */
  history: AgentHistoryMessage[];
  /** Every run id this session has seen, for `cancel`. */
  runIds: Set<string>;
}

export class AgentSessionTable {
  readonly #maxEntries: number;
  /** Insertion order is recency order: a touched entry is re-inserted at the end. */
  readonly #sessions = new Map<string, AgentSessionRecord>();

  constructor(maxEntries = AGENT_SESSION_CACHE_MAX_ENTRIES) {
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#sessions.size;
  }

  add(record: AgentSessionRecord): void {
    this.#sessions.delete(record.uuid);
    this.#sessions.set(record.uuid, record);
    while (this.#sessions.size > this.#maxEntries) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done === true) break;
      this.#sessions.delete(oldest.value);
    }
  }

  /**
   * The live session with this uuid owned by `owner`; `undefined` when it is unknown, deleted,
   * expired at `nowMs` or owned by someone else (all the same to the caller, R33).
   */
  find(uuid: string, owner: AgentSessionOwner, nowMs: number): AgentSessionRecord | undefined {
    const record = this.#sessions.get(uuid);
    if (record === undefined || !ownedBy(record, owner) || nowMs >= record.expiresAtMs) {
      return undefined;
    }
    this.#sessions.delete(uuid);
    this.#sessions.set(uuid, record);
    return record;
  }

  /** Removes the owner's session; `true` when there was one. Another owner's uuid is left alone. */
  delete(uuid: string, owner: AgentSessionOwner): boolean {
    const record = this.#sessions.get(uuid);
    if (record === undefined || !ownedBy(record, owner)) return false;
    this.#sessions.delete(uuid);
    return true;
  }

  /** The owner's sessions, newest first; expired ones only when asked. */
  list(owner: AgentSessionOwner, nowMs: number, includeExpired: boolean): AgentSessionRecord[] {
    return [...this.#sessions.values()]
      .filter((r) => ownedBy(r, owner) && (includeExpired || nowMs < r.expiresAtMs))
      .sort((a, b) => b.createdAtMs - a.createdAtMs || b.seq - a.seq);
  }
}

function ownedBy(record: AgentSessionRecord, owner: AgentSessionOwner): boolean {
  return record.userId === owner.userId && record.toolId === owner.toolId;
}
