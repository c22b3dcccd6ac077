// A recording sink on a file. Each line is appended with a synchronous write so a recording
// survives a crash up to the last frame and lines from concurrent frames never interleave.

import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import type { RecordingSink } from "../recording-transport.js";

export interface FileSink extends RecordingSink {
  close(): void;
}

/** Opens `path` for appending (created with mode 0600: recordings may hold user data). */
export function createFileSink(path: string): FileSink {
  let fd: number | undefined = openSync(path, "a", 0o600);
  return {
    write(line: string): void {
      if (fd !== undefined) writeSync(fd, line);
    },
    close(): void {
      if (fd === undefined) return;
      const current = fd;
      fd = undefined;
      try {
        fsyncSync(current);
      } finally {
        closeSync(current);
      }
    },
  };
}
