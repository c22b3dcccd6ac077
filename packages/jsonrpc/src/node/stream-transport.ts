// NDJSON over a Readable/Writable pair: the transport under plugin stdio on both sides. It frames
// (LineDecoder), parses each line once, resolves `__file_transport` pointers before anything looks
// at the frame (H3), reports what it cannot deliver (H1, H2), and writes each message with one
// JSON.stringify and one write.

import type { Readable, Writable } from "node:stream";
import { LineDecoder } from "../line-decoder.js";
import { takeOverReads } from "./static-read.js";
import type { DecodedLine } from "../line-decoder.js";
import { NULL_LOGGER } from "../null-logger.js";
import type {
  DroppedLine,
  FrameMeta,
  JsonRpcMessage,
  Logger,
  Transport,
  TransportHandlers,
} from "../types.js";
import {
  DEFAULT_MAX_FILE_TRANSPORT_BYTES,
  allowedFileTransportDirs,
  readFileTransport,
  writeFileTransport,
} from "./file-transport.js";

/** How long close() lets buffered output drain before it gives up on a reader that is not reading. */
export const CLOSE_FLUSH_TIMEOUT_MS = 2_000;

/** H1: how much of a non-JSON line goes into the log and the DroppedLine record. */
const PREVIEW_CHARS = 200;

export interface FileTransportOptions {
  /** Resolve incoming `__file_transport` pointers (both directions of the protocol may use them). */
  resolveIncoming: boolean;
  /** Where outgoing files go and incoming ones may live. Default `os.tmpdir()` (plus /tmp on POSIX). */
  tempDir?: string;
  /** Send frames larger than this through a file (the SDK side: 512 KiB). Unset: always inline (H2). */
  writeAboveBytes?: number;
  /** Refuse pointed-to files larger than this. Default 256 MiB. */
  maxFileBytes?: number;
  /** Pointed-to files must be owned by this uid. Default this process's (the peer runs as us). */
  ownerUid?: number;
}

export interface StreamTransportOptions {
  /** Longest inline line accepted (H2). Default 16 MiB. */
  maxLineBytes?: number;
  logger?: Logger;
  /** Names the other side in logs (e.g. the plugin's tool_id). */
  name?: string;
  /** Without this, pointers are not resolved (reported as `file_transport_failed`). */
  fileTransport?: FileTransportOptions;
  /** End the writable on close (default true; false for the process's own stdout). */
  endWritableOnClose?: boolean;
  /**
   * What happens to the readable on close: "drain" keeps consuming and discarding (a child still
   * writing never blocks or gets EPIPE), "destroy" releases it. Default "drain".
   */
  readableOnClose?: "drain" | "destroy";
  /** Bound on close(): after this the writable is destroyed with whatever it still holds. */
  closeFlushTimeoutMs?: number;
  /**
   * Read a piped socket into one reused buffer of this many bytes instead of a new Buffer per
   * read (see static-read.ts). Ignored when the readable is not a pipe or already has a reader.
   */
  staticReadBufferBytes?: number;
}

/**
 * Frames corked in one tick leave in writes of at most this many, not all at the end of the
 * tick: the other side starts on the first ones while this side produces the rest. With 64 in
 * flight on two cores, one write per tick made the two processes take turns (pipelined
 * throughput 136–145 k msg/s); flushing every 16 frames let them overlap (219–236 k msg/s)
 * at no more CPU per message (bench/README.md).
 */
const CORK_FLUSH_FRAMES = 16;

const BATCH_IDLE = 0;
const BATCH_WROTE = 1;
const BATCH_CORKED = 2;

function endTick(transport: StreamTransport): void {
  transport.endTick();
}

function decodeBufferUtf8(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return buffer.toString("utf8");
}

export class StreamTransport implements Transport {
  /** What we listen to: the readable given, or the socket that took over its pipe. */
  private readable: Readable;
  private readonly writable: Writable;
  private readonly decoder: LineDecoder;
  private readonly logger: Logger;
  private readonly name: string;
  private readonly resolveIncoming: boolean;
  private readonly allowedDirs: ReadonlySet<string>;
  private readonly maxFileBytes: number;
  private readonly ownerUid: number | undefined;
  private readonly tempDir: string | undefined;
  private readonly writeAboveBytes: number;
  private readonly endWritableOnClose: boolean;
  private readonly readableOnClose: "drain" | "destroy";
  private readonly closeFlushTimeoutMs: number;
  private readonly staticReadBufferBytes: number | undefined;

  private handlers: TransportHandlers | undefined;
  private closed = false;
  private batch: typeof BATCH_IDLE | typeof BATCH_WROTE | typeof BATCH_CORKED = BATCH_IDLE;
  /** Frames written since the last flush of a corked tick. */
  private corkedFrames = 0;
  private closePromise: Promise<void> | undefined;

  constructor(readable: Readable, writable: Writable, options: StreamTransportOptions = {}) {
    this.readable = readable;
    this.writable = writable;
    this.decoder = new LineDecoder({
      maxLineBytes: options.maxLineBytes,
      decodeUtf8: decodeBufferUtf8,
      // A reused read buffer is overwritten by the next read: partial lines must be copied.
      reusedChunks: options.staticReadBufferBytes !== undefined,
    });
    this.logger = options.logger ?? NULL_LOGGER;
    this.name = options.name ?? "stream";
    const file = options.fileTransport;
    this.resolveIncoming = file?.resolveIncoming ?? false;
    this.tempDir = file?.tempDir;
    this.allowedDirs = this.resolveIncoming ? allowedFileTransportDirs(file?.tempDir) : new Set();
    this.maxFileBytes = file?.maxFileBytes ?? DEFAULT_MAX_FILE_TRANSPORT_BYTES;
    this.ownerUid = file?.ownerUid ?? process.getuid?.();
    this.writeAboveBytes = file?.writeAboveBytes ?? Number.POSITIVE_INFINITY;
    this.endWritableOnClose = options.endWritableOnClose ?? true;
    this.readableOnClose = options.readableOnClose ?? "drain";
    this.closeFlushTimeoutMs = options.closeFlushTimeoutMs ?? CLOSE_FLUSH_TIMEOUT_MS;
    this.staticReadBufferBytes = options.staticReadBufferBytes;
    this.onData = this.onData.bind(this);
    this.onEnd = this.onEnd.bind(this);
    this.onReadError = this.onReadError.bind(this);
    this.onWriteError = this.onWriteError.bind(this);
  }

  /** Bytes held for an unfinished incoming line (bounded by maxLineBytes + hint windows). */
  get bufferedBytes(): number {
    return this.decoder.bufferedBytes;
  }

  /** The most bytes ever held for an unfinished incoming line. */
  get peakBufferedBytes(): number {
    return this.decoder.peakBufferedBytes;
  }

  start(handlers: TransportHandlers): void {
    if (this.handlers !== undefined) throw new Error(`${this.name}: transport already started`);
    this.handlers = handlers;
    const reader =
      this.staticReadBufferBytes === undefined
        ? undefined
        : takeOverReads(this.readable, this.staticReadBufferBytes, this.onData);
    if (reader === undefined) {
      this.readable.on("data", this.onData);
    } else {
      this.readable = reader.socket;
      for (const chunk of reader.buffered) this.onData(chunk);
    }
    this.readable.on("end", this.onEnd);
    this.readable.on("close", this.onEnd);
    this.readable.on("error", this.onReadError);
    // Stays attached after close: a late EPIPE must never become an uncaught exception.
    this.writable.on("error", this.onWriteError);
  }

  send(message: JsonRpcMessage): number {
    if (this.closed || this.writable.destroyed || this.writable.writableEnded) return 0;
    let text = JSON.stringify(message);
    // text.length is a lower bound of the UTF-8 size: only measure when it might cross the bar.
    if (text.length * 3 > this.writeAboveBytes && Buffer.byteLength(text) > this.writeAboveBytes) {
      const path = writeFileTransport(text, this.tempDir);
      const id = (message as { id?: unknown }).id;
      text = JSON.stringify(
        id === undefined
          ? { jsonrpc: "2.0", __file_transport: path }
          : { jsonrpc: "2.0", id, __file_transport: path },
      );
      this.logger.debug("frame sent through file transport", { peer: this.name, path });
    }
    // A string, not a Buffer: the socket hands it to libuv straight from a stack copy, where a
    // Buffer.from per frame cost an allocation and ~0.3 µs more (bench/README.md).
    const line = `${text}\n`;
    // The first frame of a tick leaves at once (no added latency); frames that follow it in the
    // same tick are corked and leave in one writev per CORK_FLUSH_FRAMES and at the end of the
    // tick, so a burst costs a few syscalls instead of one per message.
    if (this.batch === BATCH_IDLE) {
      this.batch = BATCH_WROTE;
      process.nextTick(endTick, this);
    } else if (this.batch === BATCH_WROTE) {
      this.batch = BATCH_CORKED;
      this.writable.cork();
    }
    this.writable.write(line);
    if (this.batch === BATCH_CORKED && ++this.corkedFrames === CORK_FLUSH_FRAMES) {
      this.corkedFrames = 0;
      this.writable.uncork();
      this.writable.cork();
    }
    return Buffer.byteLength(line);
  }

  /** @internal End of the tick that wrote frames: flush the corked ones, if any. */
  endTick(): void {
    const corked = this.batch === BATCH_CORKED;
    this.batch = BATCH_IDLE;
    this.corkedFrames = 0;
    if (corked) this.writable.uncork();
  }

  close(): Promise<void> {
    if (this.closePromise !== undefined) return this.closePromise;
    this.closePromise = this.shutdown();
    this.finish(undefined);
    return this.closePromise;
  }

  // ---- reading -----------------------------------------------------------------------------

  private onData(chunk: Buffer | string): void {
    if (this.closed) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    this.deliverAll(this.decoder.push(bytes));
  }

  private onEnd(): void {
    if (this.closed) return;
    this.deliverAll(this.decoder.end());
    this.finish(undefined);
  }

  private onReadError(error: Error): void {
    this.logger.warn("read failed", { peer: this.name, error: error.message });
    this.finish(error);
  }

  private onWriteError(error: Error): void {
    if (this.closed) return;
    this.logger.warn("write failed", { peer: this.name, error: error.message });
    this.finish(error);
  }

  private deliverAll(lines: DecodedLine[]): void {
    for (const item of lines) {
      if (this.closed) return;
      if (item.kind === "line") this.deliverLine(item.text, item.bytes);
      else this.drop(item.dropped);
    }
  }

  private deliverLine(text: string, bytes: number): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.drop({ reason: "not_json", preview: text.slice(0, PREVIEW_CHARS), bytes });
      return;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      this.drop({ reason: "not_object", preview: text.slice(0, PREVIEW_CHARS), bytes });
      return;
    }
    let message = parsed as Record<string, unknown>;
    let meta: FrameMeta = { bytes };
    const pointer = message.__file_transport;
    if (pointer !== undefined) {
      const resolved = this.resolvePointer(message, pointer);
      if (resolved === undefined) return;
      message = resolved;
      meta = { bytes, fileTransport: pointer as string };
    }
    try {
      this.handlers?.onMessage(message, meta);
    } catch (error) {
      this.logger.error("message handler threw", { peer: this.name, error: String(error) });
    }
  }

  /** H3: the pointer is replaced by the frame it points to before anyone classifies it. */
  private resolvePointer(
    pointer: Record<string, unknown>,
    path: unknown,
  ): Record<string, unknown> | undefined {
    const id = pointer.id;
    const idHint = typeof id === "string" || typeof id === "number" ? id : undefined;
    const fail = (error: string): undefined => {
      const dropped: DroppedLine = { reason: "file_transport_failed", path: String(path), error };
      if (idHint !== undefined) dropped.idHint = idHint;
      this.drop(dropped);
      return undefined;
    };
    if (!this.resolveIncoming) return fail("file transport is not enabled on this connection");
    try {
      return readFileTransport(path, this.allowedDirs, this.maxFileBytes, this.ownerUid);
    } catch (error) {
      return fail((error as Error).message);
    }
  }

  private drop(line: DroppedLine): void {
    if (line.reason === "not_json" || line.reason === "not_object") {
      this.logger.warn("non-JSON line skipped", {
        peer: this.name,
        preview: line.preview,
        bytes: line.bytes,
      });
    }
    try {
      this.handlers?.onDropped?.(line);
    } catch (error) {
      this.logger.error("dropped-line handler threw", { peer: this.name, error: String(error) });
    }
  }

  // ---- closing -----------------------------------------------------------------------------

  /** Marks the transport closed and tells the handlers, exactly once. */
  private finish(reason: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.readable.off("data", this.onData);
    this.readable.off("end", this.onEnd);
    this.readable.off("close", this.onEnd);
    if (this.readableOnClose === "drain") {
      this.readable.resume();
    } else {
      this.readable.destroy();
    }
    if (this.closePromise === undefined) this.closePromise = this.shutdown();
    this.handlers?.onClose(reason);
  }

  private shutdown(): Promise<void> {
    const writable = this.writable;
    if (!this.endWritableOnClose || writable.destroyed || writable.writableFinished)
      return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        writable.off("finish", done);
        writable.off("close", done);
        writable.off("error", done);
        resolve();
      };
      // A reader that stopped reading would keep end() pending forever.
      const timer = setTimeout(() => {
        writable.destroy();
        done();
      }, this.closeFlushTimeoutMs);
      timer.unref();
      writable.once("finish", done);
      writable.once("close", done);
      writable.once("error", done);
      if (!writable.writableEnded) writable.end();
    });
  }
}
