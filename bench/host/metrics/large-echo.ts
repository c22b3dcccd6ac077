// 1 MiB round trip: echo a 1 MiB string argument, one at a time; the median wall time.
import { performance } from "node:perf_hooks";
import { median } from "../stats.js";
import { requireLaunch, type MetricContext, type MetricOutput } from "./metric.js";

const PAYLOAD_BYTES = 1024 * 1024;
const WARMUP_CALLS = 5;
const MEASURED_CALLS = 30;

export async function largeEcho(context: MetricContext): Promise<MetricOutput> {
  const client = await requireLaunch(context)(context.env);
  const payload = "x".repeat(PAYLOAD_BYTES);
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await client.echo(payload);
    const samples: number[] = [];
    for (let i = 0; i < MEASURED_CALLS; i++) {
      const startedMs = performance.now();
      const echoed = await client.echo(payload);
      samples.push(performance.now() - startedMs);
      if (echoed.length !== PAYLOAD_BYTES) throw new Error(`echo returned ${echoed.length} chars`);
    }
    return { figures: { echo_1mib_ms: median(samples) } };
  } finally {
    await client.close();
  }
}
