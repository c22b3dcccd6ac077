// Spawn → ready: from spawn() until the plugin answered its handshake and listed its tools
// (initialize + describe; initialize + tools/list for MCP). The bare-node baseline is spawn →
// exit of `node -e 0`: the cost of starting Node itself, which no implementation can avoid.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { median } from "../stats.js";
import type { MetricContext, MetricOutput } from "./metric.js";

const WARMUP_SPAWNS = 2;
const MEASURED_SPAWNS = 8;

async function bareNodeMs(context: MetricContext): Promise<number> {
  const startedMs = performance.now();
  const child = spawn(process.execPath, ["-e", "0"], { env: context.env, stdio: "ignore" });
  await once(child, "exit");
  return performance.now() - startedMs;
}

async function pluginReadyMs(context: MetricContext): Promise<number> {
  const launch = context.launch;
  if (launch === undefined) return bareNodeMs(context);
  const startedMs = performance.now();
  const client = await launch(context.env);
  const readyMs = performance.now() - startedMs;
  await client.close();
  return readyMs;
}

export async function spawnReady(context: MetricContext): Promise<MetricOutput> {
  for (let i = 0; i < WARMUP_SPAWNS; i++) await pluginReadyMs(context);
  const samples: number[] = [];
  for (let i = 0; i < MEASURED_SPAWNS; i++) samples.push(await pluginReadyMs(context));
  return { figures: { spawn_ready_ms: median(samples) } };
}
