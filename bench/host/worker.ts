// One measurement in a fresh process: `worker --impl floor|mcp|ours|node --metric <name>`.
// Prints exactly one JSON line on stdout ({impl, metric, figures, notes?} or {error}); plugin
// stderr is inherited so crashes stay visible. The runner spawns this once per impl per round.
import { parseArgs } from "node:util";
import { minimalEnv } from "./child-env.js";
import type { LaunchClient } from "./clients/bench-client.js";
import { METRIC_RUNS, isMetricName } from "./metrics/registry.js";
import { isWorkerImpl, type WorkerImpl } from "./worker-impl.js";

async function loadLaunch(impl: WorkerImpl): Promise<LaunchClient | undefined> {
  switch (impl) {
    case "floor":
      return (await import("./clients/floor-client.js")).launchFloor;
    case "mcp":
      return (await import("./clients/mcp-client.js")).launchMcp;
    case "ours":
      return (await import("./clients/ours-client.js")).launchOurs;
    case "sdk@floor":
      return (await import("./clients/floor-client.js")).launchSdkOnFloor;
    case "floor-setsid":
      return (await import("./clients/floor-client.js")).launchFloorSetsid;
    case "floor@ours":
      return (await import("./clients/ours-client.js")).launchFloorOnOurs;
    case "ours-unsupervised":
      return (await import("./clients/ours-client.js")).launchOursUnsupervised;
    case "ours-sandboxed":
      return (await import("./clients/ours-client.js")).launchOursSandboxed;
    case "node":
      return undefined;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { impl: { type: "string" }, metric: { type: "string" } },
  });
  const impl = values.impl ?? "";
  const metric = values.metric ?? "";
  if (!isWorkerImpl(impl) || !isMetricName(metric)) {
    throw new Error(`usage: worker --impl <impl> --metric <name> (got ${impl}, ${metric})`);
  }
  const launch = await loadLaunch(impl);
  const output = await METRIC_RUNS[metric]({ launch, env: minimalEnv() });
  process.stdout.write(JSON.stringify({ impl, metric, ...output }) + "\n");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stdout.write(JSON.stringify({ error: message }) + "\n");
    process.exit(1);
  },
);
