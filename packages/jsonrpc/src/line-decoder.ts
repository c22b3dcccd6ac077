// NDJSON framing as a pure state machine (T1, H2). It never parses JSON: it cuts byte chunks into
// lines, tolerates CRLF, skips blank lines, and discards a line longer than the cap as it streams
// so a plugin printing 64 MiB without a newline costs at most ~cap + one chunk of memory.

import { recoverFrameHints } from "./frame-hints.js";
import type { DroppedLine } from "./types.js";

/** H2: inline frames up to 16 MiB (an 8 MiB upload is ~11 MiB of base64). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** How much of an oversized line's start and end is kept to recover its id and method. */
export const HINT_WINDOW_BYTES = 4 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

export type DecodedLine =
  /** `bytes` counts the line on the wire, terminator included. */
  { kind: "line"; text: string; bytes: number } | { kind: "dropped"; dropped: DroppedLine };

export interface LineDecoderOptions {
  /** Longest line accepted, in bytes, excluding the terminator. Default 16 MiB (H2). */
  maxLineBytes?: number;
  /**
   * Decodes UTF-8 bytes. Defaults to a shared TextDecoder; the Node transports pass a
   * Buffer-based decoder, which is faster for small frames.
   */
  decodeUtf8?: (bytes: Uint8Array) => string;
  /**
   * The producer overwrites a chunk's memory after push() returns (a reused read buffer): keep
   * copies of partial lines instead of views.
   */
  reusedChunks?: boolean;
}

const textDecoder = new TextDecoder("utf-8");

function defaultDecode(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}

/** A copy of bytes[start, end). Not `slice`: on a Node Buffer that returns a view. */
function copyBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, end));
  return out;
}

function concatParts(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** True when the bytes hold nothing but spaces, tabs and CRs (the line is then skipped). */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

/**
 * Splits a byte stream into lines. Partial lines are kept as a list of chunk views and joined
 * once when their newline arrives; a line past `maxLineBytes` is dropped while it streams and
 * reported with whatever id/method can be recovered from its first and last few KiB.
 */
export class LineDecoder {
  readonly maxLineBytes: number;
  private readonly decode: (bytes: Uint8Array) => string;
  private readonly reusedChunks: boolean;

  /** The current partial line: views of the producer's chunks, or copies when they are reused. */
  private parts: Uint8Array[] = [];
  private partBytes = 0;

  /** Set while an oversized line streams past. */
  private discarding = false;
  private discardedBytes = 0;
  private head: Uint8Array | undefined;
  /** Last bytes of the line being discarded: tailBytes of tailBuffer (allocated on first use). */
  private tailBuffer: Uint8Array | undefined;
  private tailBytes = 0;
  private peak = 0;

  constructor(options: LineDecoderOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.decode = options.decodeUtf8 ?? defaultDecode;
    this.reusedChunks = options.reusedChunks ?? false;
  }

  /** The most bytes ever held at once between two push() calls (for tests and diagnostics). */
  get peakBufferedBytes(): number {
    return this.peak;
  }

  /** Bytes currently held for an unfinished line (hint windows included). */
  get bufferedBytes(): number {
    return this.partBytes + (this.head?.length ?? 0) + this.tailBytes;
  }

  /** Feeds one chunk; returns the lines (and dropped-line records) it completed, in order. */
  push(chunk: Uint8Array): DecodedLine[] {
    const out: DecodedLine[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) {
        if (start < chunk.length) this.append(chunk, start, chunk.length);
        const buffered = this.bufferedBytes;
        if (buffered > this.peak) this.peak = buffered;
        return out;
      }
      this.finishLine(chunk, start, newline, out);
      start = newline + 1;
    }
  }

  /** End of stream: a last line without a newline is still delivered (liberal reading). */
  end(): DecodedLine[] {
    const out: DecodedLine[] = [];
    if (this.discarding) {
      out.push(this.takeOversized(0));
    } else if (this.partBytes > 0) {
      const line = concatParts(this.parts, this.partBytes);
      this.parts = [];
      this.partBytes = 0;
      this.emit(line, 0, line.length, 0, out);
    }
    return out;
  }

  private append(chunk: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.discarding) {
      this.discardedBytes += length;
      this.keepTail(chunk, start, end);
      return;
    }
    // +1: the line may still end in a CR, which is part of the terminator, not the content.
    if (this.partBytes + length > this.maxLineBytes + 1) {
      this.startDiscarding(chunk, start, end);
      return;
    }
    this.parts.push(this.reusedChunks ? copyBytes(chunk, start, end) : chunk.subarray(start, end));
    this.partBytes += length;
  }

  private finishLine(chunk: Uint8Array, start: number, newline: number, out: DecodedLine[]): void {
    if (this.discarding) {
      this.discardedBytes += newline - start;
      this.keepTail(chunk, start, newline);
      out.push(this.takeOversized(1));
      return;
    }
    if (this.partBytes === 0) {
      this.emit(chunk, start, newline, 1, out);
      return;
    }
    const total = this.partBytes + (newline - start);
    if (total > this.maxLineBytes + 1) {
      // +1: a CR before the LF is a terminator, not content.
      this.startDiscarding(chunk, start, newline);
      out.push(this.takeOversized(1));
      return;
    }
    this.parts.push(chunk.subarray(start, newline));
    const line = concatParts(this.parts, total);
    this.parts = [];
    this.partBytes = 0;
    this.emit(line, 0, line.length, 1, out);
  }

  /** Emits bytes[start, end) as a line; `terminator` is the LF byte count (0 at end of stream). */
  private emit(
    bytes: Uint8Array,
    start: number,
    end: number,
    terminator: number,
    out: DecodedLine[],
  ): void {
    const wireBytes = end - start + terminator;
    let contentEnd = end;
    if (contentEnd > start && bytes[contentEnd - 1] === CR) contentEnd--;
    const first = bytes[start];
    if (
      contentEnd === start ||
      ((first === SPACE || first === TAB) && isBlank(bytes, start, contentEnd))
    ) {
      return;
    }
    if (contentEnd - start > this.maxLineBytes) {
      this.head = copyBytes(bytes, start, Math.min(contentEnd, start + HINT_WINDOW_BYTES));
      this.tailBytes = 0;
      this.keepTail(bytes, Math.max(start, contentEnd - HINT_WINDOW_BYTES), contentEnd);
      this.discarding = true;
      this.discardedBytes = wireBytes;
      out.push(this.takeOversized(0));
      return;
    }
    const view =
      start === 0 && contentEnd === bytes.length ? bytes : bytes.subarray(start, contentEnd);
    out.push({ kind: "line", text: this.decode(view), bytes: wireBytes });
  }

  private startDiscarding(chunk: Uint8Array, start: number, end: number): void {
    const head = new Uint8Array(Math.min(HINT_WINDOW_BYTES, this.partBytes + end - start));
    let filled = 0;
    for (const part of this.parts) {
      if (filled >= head.length) break;
      const take = Math.min(part.length, head.length - filled);
      head.set(part.subarray(0, take), filled);
      filled += take;
    }
    if (filled < head.length) head.set(chunk.subarray(start, start + head.length - filled), filled);
    this.head = head;
    this.discarding = true;
    this.discardedBytes = this.partBytes + (end - start);
    this.tailBytes = 0;
    // The tail must see the last parts too when this chunk is short.
    for (const part of this.parts) this.keepTail(part, 0, part.length);
    this.keepTail(chunk, start, end);
    this.parts = [];
    this.partBytes = 0;
  }

  /** Keeps the last HINT_WINDOW_BYTES of the discarded line (ids are sometimes written last). */
  private keepTail(chunk: Uint8Array, start: number, end: number): void {
    // Runs for every chunk of a discarded line: no allocation, one fixed window.
    const tail = (this.tailBuffer ??= new Uint8Array(HINT_WINDOW_BYTES));
    const length = end - start;
    if (length >= HINT_WINDOW_BYTES) {
      tail.set(chunk.subarray(end - HINT_WINDOW_BYTES, end), 0);
      this.tailBytes = HINT_WINDOW_BYTES;
      return;
    }
    const keep = Math.min(this.tailBytes, HINT_WINDOW_BYTES - length);
    tail.copyWithin(0, this.tailBytes - keep, this.tailBytes);
    tail.set(chunk.subarray(start, end), keep);
    this.tailBytes = keep + length;
  }

  private takeOversized(terminator: number): DecodedLine {
    const head = this.head === undefined ? "" : this.decode(this.head);
    let tailEnd = this.tailBytes;
    if (tailEnd > 0 && this.tailBuffer?.[tailEnd - 1] === CR) tailEnd--;
    const tail =
      this.tailBuffer === undefined ? "" : this.decode(this.tailBuffer.subarray(0, tailEnd));
    const hints = recoverFrameHints(head, tail);
    const dropped: DroppedLine = { reason: "oversized", bytes: this.discardedBytes + terminator };
    if (hints.idHint !== undefined) dropped.idHint = hints.idHint;
    if (hints.methodHint !== undefined) dropped.methodHint = hints.methodHint;
    this.discarding = false;
    this.discardedBytes = 0;
    this.head = undefined;
    this.tailBytes = 0;
    return { kind: "dropped", dropped };
  }
}
