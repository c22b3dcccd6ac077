// Pipelined throughput: keep 64 small echoes in flight and count completed round trips per second.
import { performance } from "node:perf_hooks";
import type { BenchClient } from "../clients/bench-client.js";
import { requireLaunch, type MetricContext, type MetricOutput } from "./metric.js";

const IN_FLIGHT = 64;
const WARMUP_CALLS = 5_000;
const MEASURED_CALLS = 30_000;
const ECHO_TEXT = "hello, executa";

async function pump(client: BenchClient, total: number): Promise<void> {
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < total) {
      started++;
      await client.echo(ECHO_TEXT);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

export async function throughput(context: MetricContext): Promise<MetricOutput> {
  const client = await requireLaunch(context)(context.env);
  try {
    await pump(client, WARMUP_CALLS);
    const startedMs = performance.now();
    await pump(client, MEASURED_CALLS);
    const elapsedMs = performance.now() - startedMs;
    return { figures: { throughput_msg_s: (MEASURED_CALLS / elapsedMs) * 1000 } };
  } finally {
    await client.close();
  }
}
