// Each user's window events, numbered and kept for a while, so an event stream that drops can
// resume from the last event its client saw (`Last-Event-ID`) instead of losing what happened
// meanwhile. Numbers are dense per user (1, 2, 3…, assigned in the order the events were
// appended), so a listener that sees 7 after 5 knows 6 exists and reads it back here; that is
// also how a node catches up after the bus between nodes was down. The window state itself is
// in the window store; the log is the recent history of changes to it, bounded by age and count.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import type { EventBus } from "./event-bus.js";

/** Events kept per user; older ones are gone, and a stream resuming before them is told so. */
export const EVENT_LOG_PER_USER_MAX = 2048;
/** How long an event is kept: longer than any reconnect (a phone changing networks). */
export const EVENT_LOG_RETENTION_MS = 10 * 60_000;
/** Events one read returns; a resume reads until it is level. */
export const EVENT_LOG_READ_MAX = 256;
/** Events waiting to be appended for one user before new ones skip the log (logged). */
export const EVENT_LOG_PENDING_MAX = 4096;

export interface LoggedEvent {
  seq: number;
  event: AnnaAppEvent;
}

export interface EventLogRead {
  /** The events after the cursor, oldest first, at most `limit`. */
  events: LoggedEvent[];
  /** The user's newest number (0 when none was ever appended). */
  head: number;
}

export interface EventLog {
  /**
   * Appends the user's events in order and answers their numbers. A log that answers without
   * waiting (memory) returns them directly, so in-process delivery stays synchronous.
   */
  append(userId: string, events: AnnaAppEvent[]): number[] | Promise<number[]>;
  /**
   * The user's events after `seq` (oldest first) and the head. The head is read first (or at
   * once with the events): events a head counts are either returned or trimmed, never in flight.
   */
  read(userId: string, afterSeq: number, limit: number): Promise<EventLogRead>;
}

interface UserLog {
  head: number;
  /** Oldest first; `seq` of entry i is `head - entries.length + 1 + i`. */
  entries: { event: AnnaAppEvent; at: number }[];
}

/** A log kept in this process: it answers appends directly. */
export interface MemoryEventLog extends EventLog {
  append(userId: string, events: AnnaAppEvent[]): number[];
}

/** The log of one process (`anna-app dev`, tests): bounded per user, by count and by age. */
export function createMemoryEventLog(
  options: { perUserMax?: number; retentionMs?: number; now?: () => number } = {},
): MemoryEventLog {
  const perUserMax = options.perUserMax ?? EVENT_LOG_PER_USER_MAX;
  const retentionMs = options.retentionMs ?? EVENT_LOG_RETENTION_MS;
  const now = options.now ?? Date.now;
  const users = new Map<string, UserLog>();

  function trim(log: UserLog): void {
    const oldest = now() - retentionMs;
    let drop = Math.max(0, log.entries.length - perUserMax);
    while (drop < log.entries.length && log.entries[drop]!.at < oldest) drop += 1;
    if (drop > 0) log.entries.splice(0, drop);
  }

  return {
    append(userId, events) {
      let log = users.get(userId);
      if (log === undefined) {
        log = { head: 0, entries: [] };
        users.set(userId, log);
      }
      const at = now();
      const seqs: number[] = [];
      for (const event of events) {
        log.head += 1;
        log.entries.push({ event, at });
        seqs.push(log.head);
      }
      trim(log);
      return seqs;
    },
    read(userId, afterSeq, limit) {
      const log = users.get(userId);
      if (log === undefined) return Promise.resolve({ events: [], head: 0 });
      trim(log);
      const first = log.head - log.entries.length + 1;
      const from = Math.max(0, afterSeq + 1 - first);
      const events = log.entries
        .slice(from, from + limit)
        .map((e, i) => ({ seq: first + from + i, event: e.event }));
      return Promise.resolve({ events, head: log.head });
    },
  };
}

export interface SequencedEventBus extends EventBus {
  readonly log: EventLog;
  settledFor(userId: string): Promise<void>;
  /** Resolves once every event published so far is appended and delivered (shutdown, tests). */
  settled(): Promise<void>;
}

/**
 * Numbers each event in `log` before `inner` delivers it with its number. One user's events are
 * appended in publish order, batched while an append is in flight. An event the log cannot take
 * (the database is down) is still delivered, without a number: live streams get it, a resume
 * cannot.
 */
export function sequencedEventBus(
  inner: EventBus,
  log: EventLog,
  options: { logger?: Logger } = {},
): SequencedEventBus {
  const logger = options.logger ?? NULL_LOGGER;
  /** Users whose appends are in flight, with the events waiting behind them. */
  const pending = new Map<string, AnnaAppEvent[]>();
  const flushing = new Set<Promise<void>>();
  /**
   * Per user while appends are in flight: events published (the async path) and events done
   * (appended or given up), and who waits for a count; dropped once the user is level.
   */
  const progress = new Map<
    string,
    { published: number; done: number; waiters: { upTo: number; resolve: () => void }[] }
  >();

  function progressOf(userId: string) {
    let p = progress.get(userId);
    if (p === undefined) {
      p = { published: 0, done: 0, waiters: [] };
      progress.set(userId, p);
    }
    return p;
  }

  function advance(userId: string, count: number): void {
    const p = progress.get(userId);
    if (p === undefined) return;
    p.done += count;
    p.waiters = p.waiters.filter((w) => {
      if (w.upTo > p.done) return true;
      w.resolve();
      return false;
    });
    if (p.done >= p.published && p.waiters.length === 0) progress.delete(userId);
  }

  function deliver(userId: string, events: AnnaAppEvent[], seqs: number[] | undefined): void {
    events.forEach((event, i) => inner.publish(userId, event, seqs?.[i]));
  }

  function unlogged(userId: string, events: AnnaAppEvent[], error: unknown): void {
    logger.error("event log append failed; events go out without a number (a resume misses them)", {
      userId,
      events: events.length,
      error: String(error),
    });
    deliver(userId, events, undefined);
  }

  async function flush(userId: string, first: AnnaAppEvent[]): Promise<void> {
    let batch = first;
    for (;;) {
      try {
        deliver(userId, batch, await log.append(userId, batch));
      } catch (error) {
        unlogged(userId, batch, error);
      }
      advance(userId, batch.length);
      const queued = pending.get(userId)!;
      if (queued.length === 0) {
        pending.delete(userId);
        return;
      }
      batch = queued.splice(0);
    }
  }

  function publish(userId: string, event: AnnaAppEvent): void {
    const queued = pending.get(userId);
    if (queued !== undefined) {
      if (queued.length < EVENT_LOG_PENDING_MAX) {
        queued.push(event);
        progressOf(userId).published++;
      } else unlogged(userId, [event], `more than ${EVENT_LOG_PENDING_MAX} events waiting`);
      return;
    }
    let seqs: number[] | Promise<number[]>;
    try {
      seqs = log.append(userId, [event]);
    } catch (error) {
      unlogged(userId, [event], error);
      return;
    }
    if (Array.isArray(seqs)) {
      deliver(userId, [event], seqs);
      return;
    }
    pending.set(userId, []);
    progressOf(userId).published++;
    const done: Promise<void> = seqs
      .then(
        (numbers) => deliver(userId, [event], numbers),
        (error: unknown) => unlogged(userId, [event], error),
      )
      .then(() => {
        advance(userId, 1);
        const queued = pending.get(userId)!;
        if (queued.length === 0) pending.delete(userId);
        else return flush(userId, queued.splice(0));
      })
      .finally(() => flushing.delete(done));
    flushing.add(done);
  }

  return {
    publish,
    subscribe: (filter, listener) => inner.subscribe(filter, listener),
    stream: (filter, streamOptions) => inner.stream(filter, streamOptions),
    ...(inner.onReconnect === undefined
      ? {}
      : { onReconnect: (listener: () => void) => inner.onReconnect!(listener) }),
    log,
    async settled() {
      while (flushing.size > 0) await Promise.all([...flushing]);
    },
    settledFor(userId) {
      const p = progress.get(userId);
      if (p === undefined || p.done >= p.published) return Promise.resolve();
      // Only what was published before this call: a user publishing on and on is not waited out.
      return new Promise<void>((resolve) => p.waiters.push({ upTo: p.published, resolve }));
    },
  };
}
