// One progress line on stderr, rewritten in place on a terminal (`[######----] 61%  1.2/2.0
// MB`); silent when stderr is not a terminal, so pipes and --json output stay clean.
import type { CliIo } from "./io.js";

const WIDTH = 24;
const MB = 1024 * 1024;

const mb = (n: number) => (n / MB).toFixed(n < 10 * MB ? 1 : 0);

export interface ProgressBar {
  /** `total` null: no size known, so bytes only. */
  update(label: string, done: number, total: number | null): void;
  clear(): void;
}

export function progressBar(io: CliIo, enabled = io.stderr.isTTY === true): ProgressBar {
  let shown = false;
  let last = "";
  return {
    update(label, done, total) {
      if (!enabled) return;
      let line: string;
      if (total !== null && total > 0) {
        const ratio = Math.min(1, done / total);
        const filled = Math.round(ratio * WIDTH);
        line = `${label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%  ${mb(done)}/${mb(total)} MB`;
      } else {
        line = `${label} ${mb(done)} MB`;
      }
      if (line === last) return;
      last = line;
      io.stderr.write(`\r\u001b[K${line}`);
      shown = true;
    },
    clear() {
      if (shown) io.stderr.write("\r\u001b[K");
      shown = false;
      last = "";
    },
  };
}
