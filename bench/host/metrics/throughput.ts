// Pipelined throughput: keep 64 small echoes in flight and count completed round trips per second.
// Also reports the CPU each side spent per message, which says who the bottleneck is: a side near
// 1e6 / throughput µs is saturated, two sides well below it are waiting on each other.
import { performance } from "node:perf_hooks";
import type { BenchClient } from "../clients/bench-client.js";
import { cpuTimeMs } from "../proc-memory.js";
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
    const hostCpuBefore = cpuTimeMs(process.pid);
    const pluginCpuBefore = cpuTimeMs(client.pid);
    const startedMs = performance.now();
    await pump(client, MEASURED_CALLS);
    const elapsedMs = performance.now() - startedMs;
    const perMessageUs = (ms: number): number => (ms * 1000) / MEASURED_CALLS;
    return {
      figures: {
        throughput_msg_s: (MEASURED_CALLS / elapsedMs) * 1000,
        host_cpu_us_per_msg: perMessageUs(cpuTimeMs(process.pid) - hostCpuBefore),
        plugin_cpu_us_per_msg: perMessageUs(cpuTimeMs(client.pid) - pluginCpuBefore),
      },
    };
  } finally {
    await client.close();
  }
}
