// What one load run measured: every request's latency and outcome, by node and by operation,
// each with the time it happened (so failures can be placed inside or outside a fault window).
export interface Sample {
  at: number;
  op: string;
  node: string;
  ms: number;
  /** "ok", an HTTP status class like "http 502", or a NoReply kind ("reset", "timeout"). */
  outcome: string;
}

export interface Window {
  what: string;
  from: number;
  to: number;
  /** The node the fault stopped, if it stopped one. */
  node?: string;
}

export class Recorder {
  readonly samples: Sample[] = [];
  readonly faults: Window[] = [];
  startedAt = Date.now();
  endedAt = Date.now();

  add(op: string, node: string, ms: number, outcome: string): void {
    this.samples.push({ at: Date.now(), op, node, ms, outcome });
  }

  /** Inside a fault window, widened by `graceMs` on both sides (detection, reconnects). */
  inFault(at: number, graceMs: number): Window | undefined {
    return this.faults.find((w) => at >= w.from - graceMs && at <= w.to + graceMs);
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LatencyRow {
  label: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

export function latencyRows(r: Recorder, key: (s: Sample) => string): LatencyRow[] {
  const seconds = (r.endedAt - r.startedAt) / 1000;
  const groups = new Map<string, Sample[]>();
  for (const s of r.samples) {
    const k = key(s);
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, list]) => {
      const ok = list
        .filter((s) => s.outcome === "ok")
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      return {
        label,
        requests: list.length,
        perSecond: ok.length / seconds,
        p50: percentile(ok, 50),
        p99: percentile(ok, 99),
        failed: list.length - ok.length,
      };
    });
}

/** A plain text table: first column left-aligned, the rest right-aligned. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)]
    .map((l) => `  ${l}`)
    .join("\n");
}
