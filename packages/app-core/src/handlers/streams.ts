import { randomBytes } from "node:crypto";
import { makeEvent } from "../events/make-event.js";
import type { CallContext } from "../dispatcher/types.js";

/** `strm_<hex>` (U85). */
export function newStreamId(): string {
  return `strm_${randomBytes(12).toString("hex")}`;
}

/**
 * Publishes frames as `rpc.stream` events `{stream_id, window_uuid, seq, payload, done}` (R102)
 * after the current call has answered, so the SDK knows the stream id first (it buffers early
 * frames anyway). The last frame carries `done: true`.
 */
export function emitStream(ctx: CallContext, streamId: string, frames: readonly unknown[]): void {
  const { window, core } = ctx;
  setImmediate(() => {
    const last = frames.length - 1;
    frames.forEach((payload, seq) => {
      core.emit(
        window.userId,
        makeEvent(
          "rpc.stream",
          window,
          { stream_id: streamId, window_uuid: window.windowUuid, seq, payload, done: seq === last },
          core.clock(),
        ),
      );
    });
  });
}
