// Idle RSS: VmRSS of the plugin process after ready, a few calls and a short idle, against a bare
// Node process doing nothing but a setInterval.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { pluginPath } from "../paths.js";
import { rssMiB } from "../proc-memory.js";
import type { MetricContext, MetricOutput } from "./metric.js";

/** Long enough for startup garbage to settle; the figure is the steady state, not a peak. */
const IDLE_MS = 1_000;
const WARMUP_CALLS = 20;

async function bareNodeRss(context: MetricContext): Promise<number> {
  const child = spawn(process.execPath, [pluginPath("bare-idle.mjs")], {
    env: context.env,
    stdio: "ignore",
  });
  try {
    await once(child, "spawn");
    await delay(IDLE_MS);
    return rssMiB(child.pid ?? -1);
  } finally {
    const exited = once(child, "exit");
    child.kill();
    await exited;
  }
}

export async function idleRss(context: MetricContext): Promise<MetricOutput> {
  if (context.launch === undefined)
    return { figures: { idle_rss_mib: await bareNodeRss(context) } };
  const client = await context.launch(context.env);
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await client.echo("hello");
    await delay(IDLE_MS);
    return { figures: { idle_rss_mib: rssMiB(client.pid) } };
  } finally {
    await client.close();
  }
}
