// A turn's frames with a resumable cursor. Each frame gets the next sequence number of its turn
// (1, 2, …: the SSE `id:`) and is persisted before anyone is told about it, so a reader that
// reconnects after frame N reads N+1… from the store, then follows live ones. Nothing is kept
// in memory but a counter per open writer and the readers' wake-ups: memory stays flat however
// long a turn or however slow a reader. A reader in another process (or after a restart) gets
// the same frames by polling the store.
import type { TurnEvent } from "./types.js";

export interface TurnFrame {
  seq: number;
  event: TurnEvent;
}

/** Where frames live (the server's `turn_events` table; a memory one for tests and tools). */
export interface TurnFrameStore {
  append(turnId: string, frame: TurnFrame): Promise<void>;
  /** Frames with `seq > afterSeq`, in order, at most `limit`. */
  after(turnId: string, afterSeq: number, limit: number): Promise<TurnFrame[]>;
  /** The highest seq stored for the turn (0 when none). */
  lastSeq(turnId: string): Promise<number>;
}

/** Frames a reader fetches per query. */
export const TURN_FRAMES_PAGE = 200;
/** How often a reader looks at the store when no local writer wakes it (other processes). */
export const TURN_FRAMES_POLL_MS = 1_000;

export interface TurnWriter {
  readonly turnId: string;
  /** Persists the event as the next frame, then wakes the readers; resolves with its seq. */
  append(event: TurnEvent): Promise<number>;
  /**
   * The same, with the caller persisting the frame itself (e.g. in the transaction that also
   * records the turn's outcome).
   */
  appendWith(event: TurnEvent, persist: (frame: TurnFrame) => Promise<void>): Promise<number>;
}

export interface TurnEventLogOptions {
  pollMs?: number;
  pageSize?: number;
}

export class TurnEventLog {
  /** Bumped on every append; a reader sleeps only if it has not moved since its last query. */
  private readonly versions = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly pollMs: number;
  private readonly pageSize: number;

  constructor(
    private readonly store: TurnFrameStore,
    options: TurnEventLogOptions = {},
  ) {
    this.pollMs = options.pollMs ?? TURN_FRAMES_POLL_MS;
    this.pageSize = options.pageSize ?? TURN_FRAMES_PAGE;
  }

  /**
   * A writer continuing after the frames already stored. Appends through it are serialized, so
   * seqs are gapless even when the runner's events overlap (parallel tool results).
   */
  async writer(turnId: string): Promise<TurnWriter> {
    let next = (await this.store.lastSeq(turnId)) + 1;
    let tail: Promise<unknown> = Promise.resolve();
    const appendWith = (event: TurnEvent, persist: (frame: TurnFrame) => Promise<void>) => {
      const run = tail.then(async () => {
        const frame = { seq: next, event };
        await persist(frame);
        next += 1;
        this.wake(turnId);
        return frame.seq;
      });
      tail = run.catch(() => {});
      return run;
    };
    return {
      turnId,
      appendWith,
      append: (event) => appendWith(event, (frame) => this.store.append(turnId, frame)),
    };
  }

  /** Wakes the readers of a turn whose frames were written without a writer (recovery). */
  wake(turnId: string): void {
    this.versions.set(turnId, (this.versions.get(turnId) ?? 0) + 1);
    const set = this.waiters.get(turnId);
    if (set === undefined) return;
    this.waiters.delete(turnId);
    for (const resolve of set) resolve();
  }

  /**
   * Drops a finished turn's counter (its last frame is written). Readers that still follow it
   * see the counter change and read the store once more, where `turn.finished` is.
   */
  forget(turnId: string): void {
    this.versions.delete(turnId);
  }

  /**
   * Every frame after `afterSeq`, then the live ones, ending after `turn.finished` or when
   * `signal` aborts.
   */
  async *read(turnId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<TurnFrame> {
    let cursor = afterSeq;
    while (!signal.aborted) {
      const seen = this.versions.get(turnId) ?? 0;
      const page = await this.store.after(turnId, cursor, this.pageSize);
      for (const frame of page) {
        yield frame;
        cursor = frame.seq;
        if (frame.event.type === "turn.finished" || signal.aborted) return;
      }
      if (page.length === this.pageSize) continue;
      if ((this.versions.get(turnId) ?? 0) !== seen) continue;
      await this.sleep(turnId, signal);
    }
  }

  private sleep(turnId: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      let set = this.waiters.get(turnId);
      if (set === undefined) this.waiters.set(turnId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        const current = this.waiters.get(turnId);
        current?.delete(done);
        if (current?.size === 0) this.waiters.delete(turnId);
        resolve();
      };
      const timer = setTimeout(done, this.pollMs);
      signal.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }
}

/** Frames in memory, bounded per turn and in turns: for tests and single-process tools. */
export class MemoryTurnFrameStore implements TurnFrameStore {
  private readonly turns = new Map<string, TurnFrame[]>();

  constructor(private readonly maxFramesPerTurn = 100_000) {}

  append(turnId: string, frame: TurnFrame): Promise<void> {
    let frames = this.turns.get(turnId);
    if (frames === undefined) this.turns.set(turnId, (frames = []));
    const last = frames.at(-1)?.seq ?? 0;
    if (frame.seq !== last + 1) {
      return Promise.reject(
        new Error(
          `turn ${turnId}: frame ${frame.seq} appended after ${last}; seqs must be gapless`,
        ),
      );
    }
    if (frames.length >= this.maxFramesPerTurn) {
      return Promise.reject(
        new Error(`turn ${turnId} has ${frames.length} frames, the most this store keeps`),
      );
    }
    frames.push(frame);
    return Promise.resolve();
  }

  after(turnId: string, afterSeq: number, limit: number): Promise<TurnFrame[]> {
    const frames = this.turns.get(turnId) ?? [];
    // seq n sits at index n-1 (gapless from 1).
    return Promise.resolve(frames.slice(Math.max(0, afterSeq), Math.max(0, afterSeq) + limit));
  }

  lastSeq(turnId: string): Promise<number> {
    return Promise.resolve(this.turns.get(turnId)?.at(-1)?.seq ?? 0);
  }
}
