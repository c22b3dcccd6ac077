// Invoke round trip: one small echo at a time, p50 and p99 over many calls after a warm-up.
import { performance } from "node:perf_hooks";
import { percentile } from "../stats.js";
import { requireLaunch, type MetricContext, type MetricOutput } from "./metric.js";

const WARMUP_CALLS = 2_000;
const MEASURED_CALLS = 5_000;
const ECHO_TEXT = "hello, executa";

export async function invokeLatency(context: MetricContext): Promise<MetricOutput> {
  const client = await requireLaunch(context)(context.env);
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await client.echo(ECHO_TEXT);
    const samples = new Array<number>(MEASURED_CALLS);
    for (let i = 0; i < MEASURED_CALLS; i++) {
      const startedMs = performance.now();
      await client.echo(ECHO_TEXT);
      samples[i] = performance.now() - startedMs;
    }
    return {
      figures: { invoke_p50_ms: percentile(samples, 50), invoke_p99_ms: percentile(samples, 99) },
    };
  } finally {
    await client.close();
  }
}
