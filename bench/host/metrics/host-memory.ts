// Host memory under a 64 MiB line: the plugin writes one 64 MiB line without a newline, then a
// newline and a valid reply. We record the host process's peak RSS growth over that call and
// whether the valid reply still arrived. A host with a 16 MiB line cap (H2) should stay near the
// cap; an uncapped reader grows with the line.
import { performance } from "node:perf_hooks";
import { peakRssMiB, resetPeakRss, rssMiB } from "../proc-memory.js";
import { requireLaunch, type MetricContext, type MetricOutput } from "./metric.js";

const LINE_BYTES = 64 * 1024 * 1024;
const SAMPLE_INTERVAL_MS = 2;
const WARMUP_CALLS = 50;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function hostMemory(context: MetricContext): Promise<MetricOutput> {
  const client = await requireLaunch(context)(context.env);
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await client.echo("hello");
    collectGarbage();
    const baseline = rssMiB("self");
    const peakResettable = resetPeakRss();
    // The sampler is the fallback where VmHWM cannot be reset; it only sees the event loop's gaps.
    let sampledPeak = baseline;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss() / (1024 * 1024));
    }, SAMPLE_INTERVAL_MS);
    const startedMs = performance.now();
    let outcome = "reply";
    try {
      await client.flood(LINE_BYTES);
    } catch (error) {
      outcome = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 120);
    } finally {
      clearInterval(sampler);
    }
    const elapsedMs = performance.now() - startedMs;
    const peak = peakResettable ? Math.max(peakRssMiB(), sampledPeak) : sampledPeak;
    let alive = "yes";
    if (outcome === "reply") {
      try {
        await client.echo("still there?");
      } catch {
        alive = "no";
      }
    } else alive = "unknown";
    return {
      figures: { host_rss_growth_mib: peak - baseline, flood_ms: elapsedMs },
      notes: { flood_outcome: outcome, alive_after: alive },
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
