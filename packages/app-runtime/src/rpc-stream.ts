import { HostApiError, SDK_ERROR_CODES } from "./errors.js";

/** Frames of one stream are reordered by `seq` within this many buffered frames (U85). */
export const STREAM_REORDER_WINDOW = 256;
/** Frames for a stream nobody opened yet (they can beat the call's answer) are kept up to this. */
export const MAX_EARLY_FRAMES = 256;

/** One `rpc.stream` payload: `{stream_id, window_uuid, seq, payload, done}` (R102). */
export interface StreamFrame {
  stream_id: string;
  seq: number;
  payload: unknown;
  done: boolean;
}

export function readStreamFrame(value: unknown): StreamFrame | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const streamId = record["stream_id"];
  const seq = record["seq"];
  if (
    typeof streamId !== "string" ||
    streamId === "" ||
    typeof seq !== "number" ||
    !Number.isInteger(seq)
  ) {
    return undefined;
  }
  return { stream_id: streamId, seq, payload: record["payload"], done: record["done"] === true };
}

type Sink = (frame: StreamFrame) => void;

/** Routes `rpc.stream` frames to open streams; buffers frames that arrive before their stream. */
export class StreamRouter {
  readonly #sinks = new Map<string, Sink>();
  readonly #early = new Map<string, StreamFrame[]>();
  #earlyCount = 0;

  route(value: unknown): void {
    const frame = readStreamFrame(value);
    if (frame === undefined) return;
    const sink = this.#sinks.get(frame.stream_id);
    if (sink !== undefined) {
      sink(frame);
      return;
    }
    if (this.#earlyCount >= MAX_EARLY_FRAMES) return;
    const list = this.#early.get(frame.stream_id) ?? [];
    list.push(frame);
    this.#early.set(frame.stream_id, list);
    this.#earlyCount++;
  }

  open(streamId: string, sink: Sink): () => void {
    this.#sinks.set(streamId, sink);
    const early = this.#early.get(streamId);
    if (early !== undefined) {
      this.#early.delete(streamId);
      this.#earlyCount -= early.length;
      for (const frame of early) sink(frame);
    }
    return () => {
      if (this.#sinks.get(streamId) === sink) this.#sinks.delete(streamId);
    };
  }

  /** Fail every open stream (the runtime closed). */
  closeAll(error: HostApiError): void {
    const sinks = [...this.#sinks.values()];
    this.#sinks.clear();
    this.#early.clear();
    this.#earlyCount = 0;
    for (const sink of sinks) sink({ stream_id: "", seq: -1, payload: error, done: true });
  }
}

export interface StreamStart {
  stream_id: string;
  run_id?: string;
}

/**
 * A streaming call's frames as an async iterable (`llm.stream`, `agent.session.run`, R102):
 * yields each frame's `payload` in `seq` order and ends after the `done: true` frame.
 */
export class RpcStream<T = unknown> implements AsyncIterable<T> {
  /** Set once the host has answered the call. */
  streamId: string | undefined;
  runId: string | undefined;
  /** The call's answer, `{stream_id, run_id?}`; rejects when the call failed. */
  readonly started: Promise<StreamStart>;

  readonly #ready: T[] = [];
  readonly #buffered = new Map<number, StreamFrame>();
  readonly #waiters: Array<{
    resolve(result: IteratorResult<T>): void;
    reject(error: unknown): void;
  }> = [];
  #nextSeq: number | undefined;
  #ended = false;
  #failure: unknown;
  #unsubscribe: (() => void) | undefined;

  constructor(start: Promise<unknown>, router: StreamRouter) {
    this.started = start.then((answer) => {
      const record = (typeof answer === "object" && answer !== null ? answer : {}) as Record<
        string,
        unknown
      >;
      const streamId = record["stream_id"];
      if (typeof streamId !== "string" || streamId === "") {
        throw new HostApiError(
          SDK_ERROR_CODES.BAD_RESPONSE,
          "a streaming call answered without a stream_id",
          answer,
        );
      }
      const runId = typeof record["run_id"] === "string" ? record["run_id"] : undefined;
      this.streamId = streamId;
      this.runId = runId;
      if (!this.#ended) this.#unsubscribe = router.open(streamId, (frame) => this.#accept(frame));
      return runId === undefined ? { stream_id: streamId } : { stream_id: streamId, run_id: runId };
    });
    this.started.catch((error: unknown) => this.#fail(error));
  }

  #accept(frame: StreamFrame): void {
    if (this.#ended) return;
    if (frame.seq < 0) {
      this.#fail(frame.payload);
      return;
    }
    this.#nextSeq ??= frame.seq;
    if (frame.seq < this.#nextSeq || this.#buffered.has(frame.seq)) return; // a duplicate
    this.#buffered.set(frame.seq, frame);
    this.#drain();
    if (!this.#ended && this.#buffered.size > STREAM_REORDER_WINDOW) {
      // A frame is lost for good: skip the gap rather than stall the stream.
      this.#nextSeq = Math.min(...this.#buffered.keys());
      this.#drain();
    }
  }

  #drain(): void {
    for (
      let frame = this.#buffered.get(this.#nextSeq ?? 0);
      frame !== undefined;
      frame = this.#buffered.get(this.#nextSeq ?? 0)
    ) {
      this.#buffered.delete(frame.seq);
      this.#nextSeq = frame.seq + 1;
      this.#push(frame.payload as T);
      if (frame.done) {
        this.#end();
        return;
      }
    }
  }

  #push(value: T): void {
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter.resolve({ value, done: false });
    else this.#ready.push(value);
  }

  #end(): void {
    this.#ended = true;
    this.#unsubscribe?.();
    this.#buffered.clear();
    for (const waiter of this.#waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  #fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = error ?? new HostApiError(SDK_ERROR_CODES.CLOSED, "the stream failed");
    this.#ended = true;
    this.#unsubscribe?.();
    const waiters = this.#waiters.splice(0);
    if (waiters.length === 0) return; // the next read reports it
    for (const waiter of waiters) waiter.reject(this.#failure);
    this.#failure = undefined;
  }

  /** Stop listening; pending and later reads end. */
  close(): void {
    if (this.#ended) return;
    this.#end();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#ready.length > 0)
          return Promise.resolve({ value: this.#ready.shift() as T, done: false });
        if (this.#failure !== undefined) {
          const failure = this.#failure;
          this.#failure = undefined;
          return Promise.reject(
            failure instanceof Error
              ? failure
              : new HostApiError(SDK_ERROR_CODES.CLOSED, String(failure)),
          );
        }
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve, reject) =>
          this.#waiters.push({ resolve, reject }),
        );
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
