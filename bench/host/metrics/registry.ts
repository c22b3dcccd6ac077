// Metric names as the worker and runner spell them.
import { hostMemory } from "./host-memory.js";
import { idleRss } from "./idle-rss.js";
import { invokeLatency } from "./invoke-latency.js";
import { largeEcho } from "./large-echo.js";
import type { MetricRun } from "./metric.js";
import { reverseCall } from "./reverse-call.js";
import { spawnReady } from "./spawn-ready.js";
import { throughput } from "./throughput.js";

export const METRIC_RUNS = {
  "spawn-ready": spawnReady,
  "invoke-latency": invokeLatency,
  throughput,
  "large-echo": largeEcho,
  "reverse-call": reverseCall,
  "idle-rss": idleRss,
  "host-memory": hostMemory,
} satisfies Record<string, MetricRun>;

export type MetricName = keyof typeof METRIC_RUNS;

export function isMetricName(value: string): value is MetricName {
  return Object.hasOwn(METRIC_RUNS, value);
}
