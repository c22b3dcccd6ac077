// The measuring loop every bench/nexus piece uses: run an async op back to back for a fixed
// time after a warm-up, several rounds interleaved across implementations so machine drift hits
// all alike, and report the median round.

export interface Impl {
  name: string;
  /** The row this one is compared to (same group); omit for a baseline. */
  baseline?: string;
  op: () => unknown;
}

export interface Row {
  group: string;
  name: string;
  baseline: string | undefined;
  opsPerS: number;
  usPerOp: number;
}

export interface MeasureOptions {
  rounds: number;
  roundMs: number;
  warmupMs: number;
  /** Callers running `op` at once (default 1: back to back); ops/s counts them all. */
  concurrency?: number;
}

async function timed(
  op: () => unknown,
  ms: number,
  concurrency: number,
): Promise<{ ops: number; ms: number }> {
  const start = performance.now();
  let ops = 0;
  let now = start;
  const caller = async () => {
    while (now - start < ms) {
      // Batches of 16 keep the clock reads out of the figure.
      for (let i = 0; i < 16; i++) await op();
      ops += 16;
      now = performance.now();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return { ops, ms: performance.now() - start };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function measure(group: string, impls: Impl[], o: MeasureOptions): Promise<Row[]> {
  const concurrency = o.concurrency ?? 1;
  for (const impl of impls) await timed(impl.op, o.warmupMs, concurrency);
  const rates = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  for (let r = 0; r < o.rounds; r++) {
    for (const impl of impls) {
      const { ops, ms } = await timed(impl.op, o.roundMs, concurrency);
      rates.get(impl.name)!.push((ops / ms) * 1000);
    }
  }
  return impls.map((impl) => {
    const opsPerS = median(rates.get(impl.name)!);
    return { group, name: impl.name, baseline: impl.baseline, opsPerS, usPerOp: 1e6 / opsPerS };
  });
}
