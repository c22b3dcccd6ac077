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
}

async function timed(op: () => unknown, ms: number): Promise<{ ops: number; ms: number }> {
  const start = performance.now();
  let ops = 0;
  let now = start;
  while (now - start < ms) {
    // Batches of 16 keep the clock reads out of the figure.
    for (let i = 0; i < 16; i++) await op();
    ops += 16;
    now = performance.now();
  }
  return { ops, ms: now - start };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function measure(group: string, impls: Impl[], o: MeasureOptions): Promise<Row[]> {
  for (const impl of impls) await timed(impl.op, o.warmupMs);
  const rates = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  for (let r = 0; r < o.rounds; r++) {
    for (const impl of impls) {
      const { ops, ms } = await timed(impl.op, o.roundMs);
      rates.get(impl.name)!.push((ops / ms) * 1000);
    }
  }
  return impls.map((impl) => {
    const opsPerS = median(rates.get(impl.name)!);
    return { group, name: impl.name, baseline: impl.baseline, opsPerS, usPerOp: 1e6 / opsPerS };
  });
}
