// Latency rows for the pieces whose figure is a time, not a rate: samples of each
// implementation taken in turn (A, B, A, B, …) so drift on a shared machine hits all alike, and
// reported as p50 / p99. `usPerOp` is the p50, so the runner's ratio column reads the same way
// as for the rate rows.
import type { Row } from "../nexus/measure.js";

export interface LatencyRow extends Row {
  p50Us?: number;
  p99Us?: number;
  /** CPU time per op when the piece measures it (the nexus piece: per turn). */
  cpuUsPerOp?: number;
  /** A figure the ratio columns cannot show (the nexus piece: turns/s per core), printed last. */
  note?: string;
}

export interface Sampled {
  name: string;
  baseline?: string;
  /** One sample: returns its own measure in µs (what it times is up to the piece). */
  sample: () => Promise<number>;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function sampleLatencies(
  group: string,
  impls: readonly Sampled[],
  o: { samples: number; warmupSamples: number },
): Promise<LatencyRow[]> {
  for (let i = 0; i < o.warmupSamples; i++) for (const impl of impls) await impl.sample();
  const got = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  const cpus = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  for (let i = 0; i < o.samples; i++) {
    for (const impl of impls) {
      const cpu = process.cpuUsage();
      got.get(impl.name)!.push(await impl.sample());
      const used = process.cpuUsage(cpu);
      cpus.get(impl.name)!.push(used.user + used.system);
    }
  }
  return impls.map((impl) => {
    const sorted = got.get(impl.name)!.sort((a, b) => a - b);
    const p50Us = percentile(sorted, 50);
    return {
      group,
      name: impl.name,
      baseline: impl.baseline,
      usPerOp: p50Us,
      opsPerS: 1e6 / p50Us,
      p50Us,
      p99Us: percentile(sorted, 99),
      cpuUsPerOp: percentile(
        cpus.get(impl.name)!.sort((a, b) => a - b),
        50,
      ),
    };
  });
}
