// A plain aligned table for terminal output, header in bold.
import type { CliIo } from "../cli/io.js";

export function table(io: CliIo, header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join("  ")
      .trimEnd();
  return [io.style.bold(line(header)), ...rows.map(line)].join("\n") + "\n";
}
