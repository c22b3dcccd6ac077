// bench/nexus's loop (warm-up, fixed-time rounds interleaved across implementations, median
// round) with this process's CPU time per op beside the wall time. On a shared machine the wall
// time of a turn is mostly waiting for a core; the CPU it took is the figure the load decides
// least. The fake provider and the plugin answer alike for every row of a group, so the CPU
// difference between two rows is what our code costs.
import type { Impl, MeasureOptions } from "../nexus/measure.js";
import type { LatencyRow } from "./latency.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function timed(op: Impl["op"], ms: number) {
  const start = performance.now();
  const cpu = cpuUs();
  let ops = 0;
  while (performance.now() - start < ms) {
    await op();
    ops++;
  }
  return { ops, ms: performance.now() - start, cpuUs: cpuUs() - cpu };
}

export async function measureWithCpu(
  group: string,
  impls: readonly Impl[],
  o: MeasureOptions,
): Promise<LatencyRow[]> {
  for (const impl of impls) await timed(impl.op, o.warmupMs);
  const rates = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  const cpus = new Map<string, number[]>(impls.map((i) => [i.name, []]));
  for (let r = 0; r < o.rounds; r++) {
    for (const impl of impls) {
      const got = await timed(impl.op, o.roundMs);
      rates.get(impl.name)!.push((got.ops / got.ms) * 1000);
      cpus.get(impl.name)!.push(got.cpuUs / got.ops);
    }
  }
  return impls.map((impl) => {
    const opsPerS = median(rates.get(impl.name)!);
    return {
      group,
      name: impl.name,
      baseline: impl.baseline,
      opsPerS,
      usPerOp: 1e6 / opsPerS,
      cpuUsPerOp: median(cpus.get(impl.name)!),
    };
  });
}
