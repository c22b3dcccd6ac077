// The table one piece prints: per row its rate, its time per op (p50 for latency rows, with the
// p99), and its cost as a multiple of its group's baseline with the difference per op, which is
// the figure the pieces are about (the runtime's overhead).
import type { LatencyRow } from "./latency.js";

/** A duration in the unit that keeps it readable: 208 µs, 7.42 ms, 9.51 s. */
export function duration(us: number): string {
  if (!Number.isFinite(us)) return "n/a";
  if (Math.abs(us) >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (Math.abs(us) >= 1e4) return `${(us / 1e3).toFixed(2)} ms`;
  if (Math.abs(us) >= 1e3) return `${(us / 1e3).toFixed(3)} ms`;
  return `${us.toFixed(1)} µs`;
}

function baselineOf(row: LatencyRow, rows: readonly LatencyRow[]): LatencyRow | undefined {
  return rows.find((b) => b.group === row.group && b.name === row.baseline);
}

const signed = (us: number) => `${us < 0 ? "-" : "+"}${duration(Math.abs(us))}`;

/** `×1.23 the cost of X (+45.6 µs)` on the wall time per op, or `(baseline)`. */
export function versus(row: LatencyRow, rows: readonly LatencyRow[]): string {
  if (row.baseline === undefined) return "(baseline)";
  const base = baselineOf(row, rows);
  if (base === undefined) return `(no row ${row.baseline} in ${row.group})`;
  return `×${(row.usPerOp / base.usPerOp).toFixed(2)} the cost of ${base.name} (${signed(row.usPerOp - base.usPerOp)})`;
}

/** `CPU ×1.10 (+12.0 µs)` against the baseline's CPU per op, when both were measured. */
export function cpuVersus(row: LatencyRow, rows: readonly LatencyRow[]): string {
  const base = baselineOf(row, rows);
  if (row.cpuUsPerOp === undefined || base?.cpuUsPerOp === undefined) return "";
  return `CPU ×${(row.cpuUsPerOp / base.cpuUsPerOp).toFixed(2)} (${signed(row.cpuUsPerOp - base.cpuUsPerOp)})`;
}

export function printPiece(piece: string, rows: readonly LatencyRow[]): string {
  const groupWidth = Math.max(...rows.map((r) => r.group.length)) + 2;
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  let out = `\n${piece}\n`;
  out += `  ${"".padEnd(groupWidth)}${"".padEnd(width)}${"ops/s".padStart(10)}${"p50 | op".padStart(12)}${"p99".padStart(12)}${"CPU/op".padStart(12)}  vs baseline\n`;
  for (const r of rows) {
    const ops = r.opsPerS >= 10 ? Math.round(r.opsPerS).toLocaleString("en") : r.opsPerS.toFixed(2);
    const p99 = r.p99Us === undefined ? "" : duration(r.p99Us);
    const cpu = r.cpuUsPerOp === undefined ? "" : duration(r.cpuUsPerOp);
    const cpuRatio = cpuVersus(r, rows);
    const note = r.note === undefined ? "" : `; ${r.note}`;
    out += `  ${r.group.padEnd(groupWidth)}${r.name.padEnd(width)}${ops.padStart(10)}${duration(r.p50Us ?? r.usPerOp).padStart(12)}${p99.padStart(12)}${cpu.padStart(12)}  ${versus(r, rows)}${cpuRatio === "" ? "" : `; ${cpuRatio}`}${note}\n`;
  }
  return out;
}
