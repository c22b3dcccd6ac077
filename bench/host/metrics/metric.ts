// One metric run inside one fresh worker process, for one implementation.
import type { ChildEnv } from "../child-env.js";
import type { LaunchClient } from "../clients/bench-client.js";

export interface MetricContext {
  /** Starts the implementation's plugin; undefined for the bare-node baseline. */
  launch: LaunchClient | undefined;
  env: ChildEnv;
}

export interface MetricOutput {
  /** Numeric figures by name (e.g. `invoke_p50_ms`); the runner aggregates each across rounds. */
  figures: Record<string, number>;
  /** Non-numeric observations (e.g. how a flood ended). */
  notes?: Record<string, string>;
}

export type MetricRun = (context: MetricContext) => Promise<MetricOutput>;

export function requireLaunch(context: MetricContext): LaunchClient {
  if (context.launch === undefined) throw new Error("this metric needs a plugin implementation");
  return context.launch;
}
