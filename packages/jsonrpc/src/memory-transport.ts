// Two transports joined back to back, for tests and in-process wiring. Messages go through JSON
// text so nothing is shared between the sides (a handler mutating params cannot reach the caller)
// and so whatever JSON cannot carry fails here as it would on a pipe. Delivery is asynchronous,
// in order, on the microtask queue.

import { utf8ByteLength } from "./utf8.js";
import type { JsonRpcMessage, Transport, TransportHandlers } from "./types.js";

class MemoryTransport implements Transport {
  other: MemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  /** Frames that arrived before start(). */
  private backlog: string[] = [];
  private closed = false;
  private closeNotified = false;

  start(handlers: TransportHandlers): void {
    if (this.handlers !== undefined) throw new Error("memory transport already started");
    this.handlers = handlers;
    const backlog = this.backlog;
    this.backlog = [];
    for (const text of backlog) this.deliver(text);
    if (this.closed) this.notifyClose();
  }

  send(message: JsonRpcMessage): number {
    const other = this.other;
    if (this.closed || other === undefined || other.closed) return 0;
    const text = JSON.stringify(message);
    queueMicrotask(() => other.receive(text));
    return utf8ByteLength(text) + 1;
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      const other = this.other;
      queueMicrotask(() => {
        this.notifyClose();
        other?.closeFromPeer();
      });
    }
    return Promise.resolve();
  }

  private closeFromPeer(): void {
    if (this.closed) return;
    this.closed = true;
    this.notifyClose();
  }

  private receive(text: string): void {
    if (this.closed) return;
    if (this.handlers === undefined) this.backlog.push(text);
    else this.deliver(text);
  }

  private deliver(text: string): void {
    this.handlers?.onMessage(JSON.parse(text) as Record<string, unknown>, {
      bytes: utf8ByteLength(text) + 1,
    });
  }

  private notifyClose(): void {
    if (this.closeNotified || this.handlers === undefined) return;
    this.closeNotified = true;
    this.handlers.onClose();
  }
}

/** A connected pair: what one side sends, the other receives (cloned, asynchronously, in order). */
export function createMemoryPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.other = b;
  b.other = a;
  return [a, b];
}
