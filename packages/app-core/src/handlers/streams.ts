import { randomBytes } from "node:crypto";
import { makeEvent } from "../events/make-event.js";
import type { CallContext } from "../dispatcher/types.js";

/** `strm_<hex>` (U85). */
export function newStreamId(): string {
  return `strm_${randomBytes(12).toString("hex")}`;
}

/** One window stream's frames, numbered in the order they are sent. */
export interface WindowStream {
  /** Queued while the stream is held, sent at once after `release()`. */
  push(payload: unknown, done?: boolean): void;
  /**
   * Sends what was queued and everything after, from the next turn of the event loop: the
   * call that returns the stream id answers first, so the SDK has opened the stream before
   * most frames arrive (it keeps only 256 early ones).
   */
  release(): void;
}

/**
 * Publishes frames as `rpc.stream` events `{stream_id, window_uuid, seq, payload, done}` (R102)
 * to the window's user; held until `release()`.
 */
export function openWindowStream(ctx: CallContext, streamId: string): WindowStream {
  const { window, core } = ctx;
  let seq = 0;
  let held: [unknown, boolean][] | undefined = [];
  const send = (payload: unknown, done: boolean) => {
    core.emit(
      window.userId,
      makeEvent(
        "rpc.stream",
        window,
        { stream_id: streamId, window_uuid: window.windowUuid, seq: seq++, payload, done },
        core.clock(),
      ),
    );
  };
  return {
    push(payload, done = false) {
      if (held) held.push([payload, done]);
      else send(payload, done);
    },
    release() {
      setImmediate(() => {
        const queued = held ?? [];
        held = undefined;
        for (const [payload, done] of queued) send(payload, done);
      });
    },
  };
}

/**
 * Publishes a whole stream after the current call has answered, so the SDK knows the stream id
 * first. The last frame carries `done: true`.
 */
export function emitStream(ctx: CallContext, streamId: string, frames: readonly unknown[]): void {
  const stream = openWindowStream(ctx, streamId);
  const last = frames.length - 1;
  frames.forEach((payload, seq) => stream.push(payload, seq === last));
  stream.release();
}
