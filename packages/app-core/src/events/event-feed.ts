// One event stream's view of its user's event log (event-log.ts): the live events in number
// order, with what it missed read back from the log. A stream that resumes from a cursor first
// replays the events after it; a live event whose number jumps (another node's event overtook
// it on the bus, or the bus was down) makes the feed read the missing ones first. So a client
// that saw event N has seen every event up to N, and its `Last-Event-ID` is a complete cursor.
//
// Reads and the live events behind them run one at a time, in order; while a read is in flight
// the live events wait in a bounded queue. Past the bound the queue is emptied (the events are in
// the log) and one more read catches up.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { Logger } from "@anna-ai/jsonrpc";
import { EVENT_LOG_READ_MAX, type EventLog } from "./event-log.js";

/** Live events that may wait behind a read before the feed drops them and reads them back. */
export const EVENT_FEED_QUEUE_MAX = 1024;

/** Why a feed could not hand its client every event since its cursor. */
export interface EventFeedGap {
  reason: "expired" | "unknown_cursor";
  /** The client's cursor. */
  after: number;
  /** The oldest number the log still has (`expired`) or its head (`unknown_cursor`). */
  resumedAt: number;
}

export interface EventFeedSink {
  /** One event; `seq` is left out for events that have no number (written without an `id:`). */
  event(event: AnnaAppEvent, seq: number | undefined): void;
  /** Events the client missed are no longer in the log: it should reload what it shows. */
  gap(gap: EventFeedGap): void;
}

type Step = { kind: "live"; event: AnnaAppEvent; seq: number | undefined } | { kind: "read" };

export class EventFeed {
  /** Every number up to this one is delivered (or filtered out); undefined until started. */
  private last: number | undefined;
  /**
   * A fresh stream starts at the head; an event at or below it that arrives live was published
   * before the start but reached this node after the subscription: new to this client.
   */
  private stragglersUpTo = 0;
  private readonly queue: Step[] = [];
  private running = false;
  private closed = false;

  /**
   * `cursor` is the client's `Last-Event-ID`: the feed starts after it, or at the current head
   * for a fresh stream (undefined).
   */
  constructor(
    private readonly cursor: number | undefined,
    private readonly log: EventLog,
    private readonly userId: string,
    private readonly matches: (event: AnnaAppEvent) => boolean,
    private readonly sink: EventFeedSink,
    private readonly logger: Logger,
  ) {}

  /** Call it after subscribing, so nothing published in between is lost. */
  start(): void {
    this.enqueue({ kind: "read" });
  }

  /** An event from the bus, with its number when the bus is sequenced. */
  live(event: AnnaAppEvent, seq: number | undefined): void {
    if (this.closed) return;
    if (!this.running && this.queue.length === 0 && this.last !== undefined) {
      if (this.deliverLive(event, seq)) return;
    }
    if (this.queue.length >= EVENT_FEED_QUEUE_MAX) {
      const reads = this.queue.length;
      this.queue.length = 0;
      this.queue.push({ kind: "read" });
      this.logger.warn("event stream fell behind its log reads; reading the events back", {
        userId: this.userId,
        dropped: reads,
      });
    }
    this.enqueue({ kind: "live", event, seq });
  }

  /** The bus was down: read back whatever was published meanwhile. */
  catchUp(): void {
    if (!this.closed) this.enqueue({ kind: "read" });
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  /** Delivers an event that needs no read; false when it follows a gap. */
  private deliverLive(event: AnnaAppEvent, seq: number | undefined): boolean {
    const last = this.last!;
    if (seq === undefined) {
      if (this.matches(event)) this.sink.event(event, undefined);
      return true;
    }
    if (seq <= last) {
      // Delivered already (read back), or new to this client but older than its start.
      if (seq <= this.stragglersUpTo && this.matches(event)) this.sink.event(event, undefined);
      return true;
    }
    if (seq !== last + 1) return false;
    this.last = seq;
    if (this.matches(event)) this.sink.event(event, seq);
    return true;
  }

  private enqueue(step: Step): void {
    this.queue.push(step);
    if (this.running) return;
    this.running = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      if (this.last === undefined) await this.begin();
      while (!this.closed) {
        const step = this.queue.shift();
        if (step === undefined) break;
        if (step.kind === "read") {
          await this.readBack();
        } else if (!this.deliverLive(step.event, step.seq)) {
          await this.readBack();
          // The read failed or the log is behind the bus: deliver it anyway, the client's
          // cursor moves on (what it skipped is logged).
          if (step.seq! > this.last!) {
            this.last = step.seq!;
            if (this.matches(step.event)) this.sink.event(step.event, step.seq);
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async begin(): Promise<void> {
    const cursor = this.cursor;
    let head: number;
    try {
      head = (await this.log.read(this.userId, Number.MAX_SAFE_INTEGER, 1)).head;
    } catch (error) {
      this.logger.warn("event log unreadable; the stream starts without a replay", {
        userId: this.userId,
        error: String(error),
      });
      this.last = cursor ?? 0;
      return;
    }
    if (cursor === undefined) {
      this.last = head;
      this.stragglersUpTo = head;
      return;
    }
    if (cursor > head) {
      // A cursor of another server or of a log that was reset: nothing to replay from it.
      this.sink.gap({ reason: "unknown_cursor", after: cursor, resumedAt: head });
      this.last = head;
      return;
    }
    this.last = cursor;
  }

  /** Delivers every logged event after `last`, oldest first. */
  private async readBack(): Promise<void> {
    for (;;) {
      let read;
      try {
        read = await this.log.read(this.userId, this.last!, EVENT_LOG_READ_MAX);
      } catch (error) {
        this.logger.warn("event log unreadable; events in the gap are skipped", {
          userId: this.userId,
          after: this.last,
          error: String(error),
        });
        return;
      }
      if (this.closed) return;
      const first = read.events[0];
      if (first !== undefined && first.seq > this.last! + 1) {
        this.sink.gap({ reason: "expired", after: this.last!, resumedAt: first.seq });
      }
      for (const { seq, event } of read.events) {
        if (seq <= this.last!) continue;
        this.last = seq;
        if (this.matches(event)) this.sink.event(event, seq);
      }
      if (read.events.length === 0 && read.head > this.last!) {
        // Every event after the cursor is gone (a log reads its head before its events, so a
        // head past them means trimmed, not in flight): the client resyncs from the head.
        this.sink.gap({ reason: "expired", after: this.last!, resumedAt: read.head + 1 });
        this.last = read.head;
      }
      if (read.events.length < EVENT_LOG_READ_MAX) return;
    }
  }
}
