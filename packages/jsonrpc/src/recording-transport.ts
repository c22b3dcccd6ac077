// Records every frame of a connection as JSONL (`dir: out|in`, read by the fixture tools, A10),
// with secrets redacted before anything reaches the sink. Wraps any transport, so the same
// recording works for a stdio plugin, an iframe bridge or an in-memory pair.

import { redactSecrets } from "@anna-ai/app-schema/redact";
import { NULL_LOGGER } from "./null-logger.js";
import type {
  DroppedLine,
  FrameMeta,
  JsonRpcMessage,
  Logger,
  Transport,
  TransportHandlers,
} from "./types.js";

/** Where recorded lines go. Each call gets one complete line, newline included. */
export interface RecordingSink {
  write(line: string): void;
  /** Flushes and releases the sink; called once when the recording transport closes. */
  close?(): void | Promise<void>;
}

/** One line of a recording. */
export interface RecordedFrame {
  /** Milliseconds since the recording started (A10). */
  t: number;
  ts: string;
  dir: "out" | "in";
  bytes: number;
  msg?: unknown;
  /** Set instead of `msg` for a line the transport could not deliver (previews are not kept). */
  dropped?: { reason: DroppedLine["reason"] };
  /** The `__file_transport` path the frame travelled through. */
  file?: string;
}

export interface RecordingTransportOptions {
  /** Clock for `t` and `ts`; tests inject a fixed one. */
  now?: () => number;
  /** Told when the sink throws; recording never breaks the connection it observes. */
  logger?: Logger;
}

export class RecordingTransport implements Transport {
  private readonly inner: Transport;
  private readonly sink: RecordingSink;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly startedAt: number;
  private sinkClosed = false;

  constructor(inner: Transport, sink: RecordingSink, options: RecordingTransportOptions = {}) {
    this.inner = inner;
    this.sink = sink;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? NULL_LOGGER;
    this.startedAt = this.now();
  }

  start(handlers: TransportHandlers): void {
    this.inner.start({
      onMessage: (message, meta) => {
        this.record("in", message, meta);
        handlers.onMessage(message, meta);
      },
      onDropped: (line) => {
        this.recordDropped(line);
        handlers.onDropped?.(line);
      },
      onClose: (reason) => {
        handlers.onClose(reason);
        void this.closeSink();
      },
    });
  }

  send(message: JsonRpcMessage): number {
    const bytes = this.inner.send(message);
    if (bytes > 0) this.record("out", message, { bytes });
    return bytes;
  }

  async close(): Promise<void> {
    await this.inner.close();
    await this.closeSink();
  }

  private record(dir: "in" | "out", message: unknown, meta: FrameMeta): void {
    const at = this.now();
    const frame: RecordedFrame = {
      t: at - this.startedAt,
      ts: new Date(at).toISOString(),
      dir,
      bytes: meta.bytes,
      msg: redactSecrets(message),
    };
    if (meta.fileTransport !== undefined) frame.file = meta.fileTransport;
    this.write(frame);
  }

  private recordDropped(line: DroppedLine): void {
    const at = this.now();
    const frame: RecordedFrame = {
      t: at - this.startedAt,
      ts: new Date(at).toISOString(),
      dir: "in",
      bytes: "bytes" in line ? line.bytes : 0,
      dropped: { reason: line.reason },
    };
    this.write(frame);
  }

  private write(frame: RecordedFrame): void {
    if (this.sinkClosed) return;
    try {
      this.sink.write(`${JSON.stringify(frame)}\n`);
    } catch (error) {
      this.logger.warn("recording sink failed", { error: String(error) });
    }
  }

  private async closeSink(): Promise<void> {
    if (this.sinkClosed) return;
    this.sinkClosed = true;
    try {
      await this.sink.close?.();
    } catch (error) {
      this.logger.warn("recording sink failed to close", { error: String(error) });
    }
  }
}
