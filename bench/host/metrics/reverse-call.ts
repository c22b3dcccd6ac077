// Reverse call round trip (plugin → host → plugin): the plugin times its one reverse request
// itself, so the figure excludes the forward invoke around it. The host answers instantly.
import { performance } from "node:perf_hooks";
import { percentile } from "../stats.js";
import { requireLaunch, type MetricContext, type MetricOutput } from "./metric.js";

const WARMUP_CALLS = 500;
const MEASURED_CALLS = 2_000;

export async function reverseCall(context: MetricContext): Promise<MetricOutput> {
  const client = await requireLaunch(context)(context.env);
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await client.reverse();
    const reverse = new Array<number>(MEASURED_CALLS);
    const invoke = new Array<number>(MEASURED_CALLS);
    for (let i = 0; i < MEASURED_CALLS; i++) {
      const startedMs = performance.now();
      reverse[i] = await client.reverse();
      invoke[i] = performance.now() - startedMs;
    }
    return {
      figures: {
        reverse_p50_ms: percentile(reverse, 50),
        reverse_invoke_p50_ms: percentile(invoke, 50),
      },
    };
  } finally {
    await client.close();
  }
}
