// An upload progress bar on stderr, redrawn in place, only when stderr is a terminal and the
// command is not printing --json: a CI log or a pipe gets no control characters.
import type { CliIo } from "../cli/io.js";

export interface Progress {
  advance(bytes: number): void;
  done(): void;
}

const BAR_CELLS = 24;
const NO_PROGRESS: Progress = { advance() {}, done() {} };

export function progressBar(
  io: CliIo,
  label: string,
  totalBytes: number,
  quiet: boolean,
): Progress {
  if (quiet || io.stderr.isTTY !== true || totalBytes <= 0) return NO_PROGRESS;
  let sent = 0;
  const draw = () => {
    const ratio = Math.min(1, sent / totalBytes);
    const full = Math.round(ratio * BAR_CELLS);
    io.stderr.write(
      `\r${label} [${"#".repeat(full)}${"-".repeat(BAR_CELLS - full)}] ` +
        `${Math.round(ratio * 100)}% ${kib(sent)}/${kib(totalBytes)}`,
    );
  };
  draw();
  return {
    advance(bytes) {
      sent += bytes;
      draw();
    },
    done() {
      io.stderr.write("\n");
    },
  };
}

const kib = (n: number) =>
  n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
