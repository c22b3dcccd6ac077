// A plugin's stderr is its log. Keep the last lines for error messages and UIs without letting a
// flood (or one endless line) grow memory: lines are capped as they are cut, and only a fixed ring
// of them is kept.

import { StringDecoder } from "node:string_decoder";

export const STDERR_TAIL_LINES = 200;
export const STDERR_MAX_LINE_CHARS = 4096;

/** Cuts a byte stream into lines of at most `maxLineChars` (the rest is counted, not kept). */
export class CappedLineSplitter {
  private partial = "";
  private partialDropped = 0;
  private readonly decoder = new StringDecoder("utf8");

  constructor(readonly maxLineChars: number = STDERR_MAX_LINE_CHARS) {}

  /** Feed a chunk; returns the lines it completed, oldest first. */
  push(chunk: Buffer | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    const completed: string[] = [];
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) break;
      this.appendPartial(text.slice(start, newline));
      completed.push(this.takePartial());
      start = newline + 1;
    }
    if (start < text.length) this.appendPartial(text.slice(start));
    return completed;
  }

  /** The stream ended: the last line, if it had no newline. */
  end(): string[] {
    const rest = this.decoder.end();
    if (rest !== "") this.appendPartial(rest);
    if (this.partial === "" && this.partialDropped === 0) return [];
    return [this.takePartial()];
  }

  private appendPartial(piece: string): void {
    const room = this.maxLineChars - this.partial.length;
    if (piece.length <= room) {
      this.partial += piece;
    } else {
      if (room > 0) this.partial += piece.slice(0, room);
      this.partialDropped += piece.length - Math.max(room, 0);
    }
  }

  private takePartial(): string {
    let line = this.partial.endsWith("\r") ? this.partial.slice(0, -1) : this.partial;
    if (this.partialDropped > 0) line += ` …[${this.partialDropped} more chars]`;
    this.partial = "";
    this.partialDropped = 0;
    return line;
  }
}

/** The last `maxLines` lines, in a fixed array: pushing never allocates beyond it. */
export class StderrRing {
  private readonly ring: string[] = [];
  private next = 0;

  constructor(readonly maxLines: number = STDERR_TAIL_LINES) {}

  add(line: string): void {
    if (this.ring.length < this.maxLines) {
      this.ring.push(line);
    } else {
      this.ring[this.next] = line;
    }
    this.next = (this.next + 1) % this.maxLines;
  }

  /** The kept lines, oldest first; `count` limits it to the last `count`. */
  lines(count?: number): string[] {
    const ordered =
      this.ring.length < this.maxLines
        ? this.ring.slice()
        : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return count === undefined || count >= ordered.length ? ordered : ordered.slice(-count);
  }
}
